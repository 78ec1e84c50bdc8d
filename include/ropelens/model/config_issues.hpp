// What the normalizer saw in a config and could not take as written. It records the facts (where, which field,
// the values involved); the CFG rules decide what each one means, how severe it is and how to say it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>

namespace ropelens {

enum class RopeType;

// The kind of value a field or a list entry takes.
enum class ValueType { number, whole_number, positive_number, boolean, string, object, list, number_list };

enum class InvalidReason {
  wrong_type,             // `expected` is what the field takes, `written` what it holds
  wrong_entry_type,       // a list entry: `expected` is what each entry takes, `written` the entry
  not_finite,             // `written`: the NaN or Infinity as spelled, or "" for a number that overflows
  not_positive,           // `value`
  negative,               // `value`
  below_minimum,          // `value` < `minimum`
  above_maximum,          // `value` > `maximum`
  outside_unit_interval,  // `value` is not in (0, 1]
  factor_below_one,       // `value`: a scaling factor that shortens wavelengths
  within_exact_buckets,   // `value` ≤ `minimum`, the T5 buckets that hold one distance each
  no_usable_layer_value,  // a per-layer array with no entry in range
};

// A value of the wrong type or outside what the field allows; it was not used.
struct InvalidValue {
  std::string field{};  // as users know it: "rope_theta", "partial rotary factor", "llama.rope.freq_base"
  InvalidReason reason = InvalidReason::wrong_type;
  ValueType expected = ValueType::number;
  std::string written{};  // the value as written, where it is not a usable number
  double value = 0.0;
  std::int64_t minimum = 0;
  std::int64_t maximum = 0;
};

// A value nested deeper than the reader follows; it was not read.
struct ValueCutForDepth {
  int max_depth = 0;
};

// rope_type (or type) names no method transformers implements; default RoPE stands in for it.
struct UnknownRopeType {
  std::string spelled{};
};

// The RoPE dict lacks a key its method requires.
struct MissingRequiredKey {
  std::string key{};
  std::string rope_type{};              // as spelled in the config
  std::optional<double> filled_with{};  // set when transformers only warns and uses this value instead of raising
};

// No head_dim, and no hidden_size with num_attention_heads to derive it from, or a derived one that was refused.
struct UnderivableHeadDim {
  std::int64_t refused = 0;  // hidden_size // num_attention_heads when it was above `maximum`, else 0
  std::int64_t maximum = 0;

  std::string reason() const {
    if (refused == 0) return "no head_dim, and no hidden_size with num_attention_heads";
    return "hidden_size // num_attention_heads gives " + std::to_string(refused) + ", above the maximum " +
           std::to_string(maximum);
  }
};

// The legacy key `type` without `rope_type`.
struct LegacyTypeKey {
  std::string type{};
};

// Both `type` and `rope_type`, naming different methods.
struct ConflictingTypeKeys {
  std::string legacy_type{};
  std::string rope_type{};
};

// A method name from before transformers renamed it ('su', 'mrope').
struct LegacyRopeTypeName {
  std::string spelled{};
  RopeType means{};
};

// A key in the RoPE dict that its method does not read.
struct UnknownRopeKey {
  std::string key{};
  RopeType rope_type{};
};

enum class ScheduleReason {
  not_a_list,                   // `field` holds `written`
  entry_not_a_string,           // a layer_types entry: `written`
  unknown_layer_type,           // a layer_types entry: `written`, treated as full_attention
  entry_not_a_flag,             // a no_rope_layers or hybrid_layer_pattern entry other than 0 or 1: `written`
  wrong_entry_count,            // `field` has `count` entries for `layers` layers
  layer_type_without_rope,      // layer `layer` has type `written`, which the nested RoPE dict has no entry for
  window_layers_beyond_count,   // max_window_layers `count` exceeds `layers`, so no layer slides
  layer_index_out_of_range,     // a `field` entry `written` is not one of `layers` layers (counted from `count`)
  not_a_pattern,                // `field` holds `written`, not a layer pattern string such as "M-M*"
  unknown_pattern_character,    // character `layer` of the `field` pattern is `written`
  entry_not_an_attention_flag,  // a `field` entry other than 1 (attention) or 0 (linear attention): `written`
  offset_not_below_period,      // attn_layer_offset `count` is not below attn_layer_period `layers`: nothing attends
};

// The per-layer schedule does not fit the layer count or names what nothing reads.
struct LayerScheduleMismatch {
  ScheduleReason reason = ScheduleReason::not_a_list;
  std::string field{};  // layer_types, no_rope_layers or max_window_layers
  std::string written{};
  std::int64_t count = 0;
  int layers = 0;  // num_hidden_layers
  int layer = 0;
};

// A scaled RoPE without original_max_position_embeddings: transformers fills it with the declared length.
struct DefaultedOriginalLength {
  RopeType rope_type{};
  std::int64_t filled_with = 0;
};

enum class RopeFreqsMisfit {
  wrong_length,          // `count` values for `pairs` rotary pairs
  unusable_value,        // entry `pair` is `value`: not a finite number above 0
  slowest_not_scaled,    // the slowest pair's divisor `value` is not above 1, yet some divisor differs from 1
  too_few_band_pairs,    // `count` pairs lie strictly between 1 and the factor; two fix the band's edges
  band_not_llama3,       // the divisors between 1 and the factor (from pair `pair`) do not shrink with frequency
  closed_form_mismatch,  // entry `pair` is `value`; the llama3 closed form of the recovered parameters gives `expected`
};

// A GGUF rope_freqs tensor (per-pair frequency divisors) that no llama3 closed form reproduces: the length
// trained before scaling, which llama3's divisors encode, cannot be recovered from the file.
struct UnrecoverableRopeFreqs {
  RopeFreqsMisfit reason = RopeFreqsMisfit::closed_form_mismatch;
  int pair = 0;
  double value = 0.0;
  double expected = 0.0;
  std::int64_t count = 0;
  int pairs = 0;
};

// A key at the top level (or in text_config) that no config class defines but that is a near miss of one that
// does (`rope_thetta`): transformers keeps it as a stray attribute, and the attribute meant takes its default.
struct MisspelledConfigKey {
  std::string key{};
  std::string meant{};            // the known attribute it is nearest to
  bool read_by_ropelens = false;  // ropelens reads `meant`, so what it computes may rest on a default
  bool meant_also_set = false;    // the config holds `meant` too
};

// Neither model_type, architectures, auto_map nor a key signature names semantics ropelens knows: the config was read
// as a Llama config, and what that assumed is in the Model (head_dim, pairing, rope_theta and their provenance).
struct BestEffortReading {
  std::string model_type{};    // "" when the config has none
  std::string architecture{};  // architectures[0] as written, "" when absent
};

struct ConfigIssue {
  using Detail =
      std::variant<InvalidValue, ValueCutForDepth, UnknownRopeType, MissingRequiredKey, UnderivableHeadDim,
                   LegacyTypeKey, ConflictingTypeKeys, LegacyRopeTypeName, UnknownRopeKey, LayerScheduleMismatch,
                   DefaultedOriginalLength, UnrecoverableRopeFreqs, MisspelledConfigKey, BestEffortReading>;

  std::string pointer{};  // RFC 6901 into the config ("" = the whole document), or gguf:<key>
  Detail detail;
};

}  // namespace ropelens
