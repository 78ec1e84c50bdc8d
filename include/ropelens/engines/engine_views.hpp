// Engine views: how transformers, vLLM, SGLang and llama.cpp turn the same normalized RoPE setups into
// frequencies, magnitudes and length limits. Each engine is a pure function over the Model, in its folder
// src/engines/<engine>/rope_view.cpp; every version whose behaviour changed is its own view, and each view names
// the source it follows (EngineView::follows). The transformers v5 view is src/rope/*.cpp itself.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ropelens/engines/engine.hpp"
#include "ropelens/model/model.hpp"
#include "ropelens/model/note.hpp"
#include "ropelens/rope/rope.hpp"

namespace ropelens {

enum class LimitAction { none, warning, error };
std::string_view to_string(LimitAction action);

// The length an engine derives from the config and what it does beyond it.
struct LengthLimit {
  std::optional<std::int64_t> limit_tokens;    // longest length accepted without an override; none = no limit
  std::optional<std::int64_t> default_tokens;  // the length served when the user sets none
  std::string derivation;                      // how the engine arrives at limit_tokens
  std::string length_key;                      // the config key its length starts from ("" when none is stated)
  LimitAction beyond = LimitAction::none;      // what a longer request or setting gets
  std::string message;                         // the engine's own words at the target ("" when within the limit)
  std::string override_how;                    // how to go beyond anyway ("" when there is nothing to override)
};

// When a LongRoPE engine chooses between its short and long factor lists.
enum class FactorSwitch { none, per_sequence, per_batch, per_deployment, per_context };
std::string_view to_string(FactorSwitch when);

struct EngineSetupView {
  int setup = 0;                             // index into Model::setups
  RopeType method = RopeType::default_rope;  // what the engine runs (llama.cpp runs dynamic as default)
  std::vector<double> inv_freq;              // effective rad/token per pair at the target
  double rope_magnitude = 1.0;               // multiplies cos and sin (logits scale by its square)
  double softmax_multiplier = 1.0;           // extra factor on the q·k/sqrt(d_k) scale (MLA mscale²)
  double factor = 1.0;                       // the scaling factor the engine uses
  std::optional<double> effective_theta;     // the base behind inv_freq when the engine changes it
  Pairing pairing = Pairing::rotate_half;    // which dimensions rotate together (the model's, as every engine runs it)
  std::optional<double> correction_low;      // YaRN ramp bounds, in pair indices
  std::optional<double> correction_high;
  FactorSwitch factor_switch = FactorSwitch::none;
  bool long_factors = false;             // LongRoPE: the long list is active at the target
  bool recomputed_per_sequence = false;  // the frequencies follow each sequence's length (really dynamic)
  std::vector<Note> notes;
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
  EngineVersion version{};
  std::string label;
  std::vector<std::string> same_as;  // labels of other versions that behave identically for this config
  std::string follows;               // the source (file @commit or PR) this view models
  LengthLimit length;
  std::vector<EngineSetupView> setups;  // one per Model::setups entry
  std::optional<GgufConversion> gguf;
  // The engine cannot load this config: where and how it fails, and why ("" fields when it loads).
  std::optional<std::string> refusal;
  // This version has no model class for the config's model_type (it came later): the view's figures are what
  // the same setups would give, and no comparison uses them.
  std::optional<std::string> no_class;
  std::vector<Note> notes;
};

// The model was read from a GGUF file: only llama.cpp runs it as is; the other views show the equivalent config.
bool from_gguf_file(const Model& model);

// One engine version's view at a target length (the sequence length, deployment length or n_ctx).
EngineView engine_view(const Model& model, EngineVersion version, std::int64_t target_tokens);
// The views of the selected engines; versions that behave identically for this config are merged.
std::vector<EngineView> engine_views(const Model& model, const std::vector<Engine>& engines,
                                     std::int64_t target_tokens);
// The views of these versions only (in all_engines() order, then each engine's order), merged the same way.
std::vector<EngineView> engine_views(const Model& model, const std::vector<EngineVersion>& versions,
                                     std::int64_t target_tokens);

}  // namespace ropelens
