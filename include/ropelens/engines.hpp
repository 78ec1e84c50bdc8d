// Engine views: how transformers, vLLM, SGLang and llama.cpp turn the same normalized RoPE setups into
// frequencies, magnitudes and length limits. Each engine is a pure function over the Model, one file per
// engine in src/rope/engines/; every version whose behaviour changed is its own view, and each view names
// the source and PR it follows (EngineView::follows). The transformers v5 view is src/rope/*.cpp itself.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "ropelens/model.hpp"
#include "ropelens/rope.hpp"

namespace ropelens {

enum class Engine { transformers, vllm, sglang, llama_cpp };
std::string_view to_string(Engine engine);  // transformers, vllm, sglang, llama.cpp
std::optional<Engine> parse_engine(std::string_view name);
const std::vector<Engine>& all_engines();
// "all" or one engine name (as --engine takes it); throws std::invalid_argument naming the choices.
std::vector<Engine> parse_engine_selection(std::string_view text);

// Every engine version whose behaviour differs somewhere.
enum class EngineVersion {
  transformers_v5,
  transformers_4_5x,   // yarn factor := max/original when original is present (#38224, fixed by #40320)
  transformers_4_4x,   // yarn correction range on max_position_embeddings (@ef468064)
  vllm_current,        // ≥ PR #56446 (YaRN aligned with transformers; max_model_len never re-scaled for YaRN)
  vllm_legacy,         // < PR #56446, and dynamic NTK before PR #41277
  vllm_dynamic_41277,  // PR #41277 … < PR #56446: the dynamic-NTK formula changed, YaRN still legacy
  sglang,
  llama_cpp,
};
Engine engine_of(EngineVersion version);
std::string_view label_of(EngineVersion version);
// The version each engine ships today (transformers v5, vLLM ≥ PR #56446, SGLang, llama.cpp).
bool is_current(EngineVersion version);
const std::vector<EngineVersion>& versions_of(Engine engine);

enum class LimitAction { none, warning, error };
std::string_view to_string(LimitAction action);

// The length an engine derives from the config and what it does beyond it.
struct LengthLimit {
  std::optional<std::int64_t> limit_tokens;    // longest length accepted without an override; none = no limit
  std::optional<std::int64_t> default_tokens;  // the length served when the user sets none
  std::string derivation;                      // how the engine arrives at limit_tokens
  LimitAction beyond = LimitAction::none;      // what a longer request or setting gets
  std::string message;                         // the engine's own words beyond the limit (at the target)
  std::string override_how;                    // how to go beyond anyway ("" when there is nothing to override)
};

// When a LongRoPE engine chooses between its short and long factor lists.
enum class FactorSwitch { none, per_sequence, per_deployment, per_context };
std::string_view to_string(FactorSwitch when);

struct EngineSetupView {
  int setup = 0;                             // index into Model::setups
  RopeType method = RopeType::default_rope;  // what the engine runs (llama.cpp runs dynamic as default)
  std::vector<double> inv_freq;              // effective rad/token per pair at the target
  double rope_magnitude = 1.0;               // multiplies cos and sin (logits scale by its square)
  double softmax_multiplier = 1.0;           // extra factor on the q·k/sqrt(d_k) scale (MLA mscale²)
  double factor = 1.0;                       // the scaling factor the engine uses
  std::optional<double> effective_theta;     // the base behind inv_freq when the engine changes it
  std::optional<double> correction_low;      // YaRN ramp bounds, in pair indices
  std::optional<double> correction_high;
  FactorSwitch factor_switch = FactorSwitch::none;
  bool long_factors = false;             // LongRoPE: the long list is active at the target
  bool recomputed_per_sequence = false;  // the frequencies follow each sequence's length (really dynamic)
  std::vector<std::string> notes;
};

struct LostSetting {
  std::string pointer;  // the config key GGUF cannot carry
  std::string what;     // what happens instead, with numbers
};

// What convert_hf_to_gguf.py writes for one config (llama.cpp views only).
struct GgufConversion {
  bool from_gguf = false;                                 // the model was read from a GGUF file: nothing is converted
  std::optional<std::string> failure;                     // the converter stops, e.g. with a KeyError
  std::string arch;                                       // general.architecture ropelens assumes
  std::vector<std::pair<std::string, std::string>> keys;  // {arch}.… key → value as written
  std::vector<std::string> tensors;                       // rope tensors written, with their shape
  std::vector<LostSetting> lost;                          // settings the file cannot represent
  std::vector<std::string> notes;
};

struct EngineView {
  EngineVersion version = EngineVersion::transformers_v5;
  std::string label;
  std::vector<std::string> same_as;  // labels of other versions that behave identically for this config
  std::string follows;               // the source (file @commit or PR) this view models
  LengthLimit length;
  std::vector<EngineSetupView> setups;  // one per Model::setups entry
  std::optional<GgufConversion> gguf;
  std::vector<std::string> notes;
};

// The model was read from a GGUF file: only llama.cpp runs it as is; the other views show the equivalent config.
bool from_gguf_file(const Model& model);

// One engine version's view at a target length (the sequence length, deployment length or n_ctx).
EngineView engine_view(const Model& model, EngineVersion version, std::int64_t target_tokens);
// The views of the selected engines; versions that behave identically for this config are merged.
std::vector<EngineView> engine_views(const Model& model, const std::vector<Engine>& engines,
                                     std::int64_t target_tokens);

// ---- comparison ----

// Above float32 rounding (transformers and llama.cpp agree to ~2e-6 where they compute the same thing).
inline constexpr double kEngineRelativeThreshold = 1e-4;
double relative_difference(double a, double b);  // |a-b| / max(|a|,|b|), 0 when both are 0

struct PairDifference {
  int setup = 0;
  int pair = 0;
  std::size_t view_a = 0;  // indices into the compared views, view_a < view_b
  std::size_t view_b = 0;
  double inv_freq_a = 0.0;
  double inv_freq_b = 0.0;
  double relative = 0.0;
  double ratio() const;  // larger / smaller (≥ 1; infinite when one is 0)
};

struct MagnitudeDifference {
  int setup = 0;
  std::size_t view_a = 0;
  std::size_t view_b = 0;
  bool softmax = false;  // false: rope magnitude on cos/sin; true: softmax scale multiplier
  double value_a = 0.0;
  double value_b = 0.0;
};

struct EngineComparison {
  std::vector<PairDifference> frequencies;        // every (setup, pair, two views) above the threshold
  std::optional<PairDifference> worst_frequency;  // against the first (reference) view when any, else overall
  double max_frequency_relative = 0.0;            // over every pair, also below the threshold
  std::vector<MagnitudeDifference> magnitudes;
  bool lengths_differ = false;  // limit or default length differs between views that have one
};

EngineComparison compare_views(const std::vector<EngineView>& views, double threshold = kEngineRelativeThreshold);
double max_relative_difference(const EngineSetupView& a, const EngineSetupView& b);
std::vector<int> differing_pairs(const EngineSetupView& a, const EngineSetupView& b,
                                 double threshold = kEngineRelativeThreshold);

// ---- report and renderers ----

struct EngineReport {
  std::int64_t target_tokens = 0;
  std::vector<EngineView> views;
  EngineComparison comparison;
};

EngineReport build_engine_report(const Model& model, const std::vector<Engine>& engines, std::int64_t target_tokens);

void render_engines_text(const Model& model, const EngineReport& report, std::ostream& out);
void render_engines_json(const Model& model, const EngineReport& report, std::ostream& out);
// The JSON document render_engines_json prints, for embedding in another report (e.g. check --format json).
nlohmann::json engines_to_json(const Model& model, const EngineReport& report);

// ---- llama.cpp arithmetic, exposed for tests ----

// ggml_rope_cache_init's per-pair angle at position 1: theta starts at 1 and is multiplied by
// base^(-2/n_dims) once per pair, all in float32. Its drift from the float64 powers is ~2e-6 by pair 63.
std::vector<float> ggml_fp32_theta_iteration(double base, int n_dims, int pairs);

// DeepSeek2 graph: kq_scale multiplier mscale² with mscale = 1 + 0.1·yarn_log_multiplier·ln(factor), the
// multiplier as the loader holds it (DEEPSEEK2 files store 0.1·mscale_all_dim and the loader divides by 0.1).
double llama_cpp_deepseek2_kq_multiplier(double yarn_log_multiplier, double factor);

// ---- overrides that replace a trained method (ENG305) ----

struct MethodOverride {
  int setup = 0;
  std::string pointer;  // the RoPE dict the override wrote
  RopeType trained = RopeType::default_rope;
  RopeType applied = RopeType::default_rope;
  double trained_factor = 1.0;
  double applied_factor = 1.0;
};

// Setups whose RoPE method differs between the config as trained and the config with --set edits applied.
std::vector<MethodOverride> find_method_overrides(const Model& trained, const Model& edited);

}  // namespace ropelens
