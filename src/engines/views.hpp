// Internal to the engine views: the helpers every engine's view shares (each engine's folder declares its own view
// in <engine>/<engine>.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ropelens/engines/engine_report.hpp"
#include "ropelens/engines/engine_views.hpp"
#include "ropelens/engines/method_override.hpp"

namespace ropelens::engine_detail {

// ---- shared helpers (views.cpp) ----

EngineSetupView from_table(int setup, const RopeTable& table);
EngineView empty_view(const Model& model, EngineVersion version);

bool read_from_gguf(const Model& model);
bool is_mla(const Model& model);  // DeepSeek-style attention: RoPE on qk_rope_head_dim only
// rope_type "deepseek_yarn": YaRN that vLLM and SGLang run as DeepseekScalingRotaryEmbedding.
bool is_deepseek_yarn(const RopeSetup& setup);
int mla_key_dim(const Model& model, const RopeSetup& setup);
bool is_deepseek_family(const Model& model);

// The factor a setup states (1 when none).
double stated_factor(const RopeSetup& setup);
std::int64_t original_or_declared(const RopeSetup& setup);
bool original_given_in_config(const RopeSetup& setup);  // not filled in by standardization
// transformers' `mscale and mscale_all_dim`: both present and non-zero.
bool mscale_pair_truthy(const YarnParams& yarn);
// DeepSeek modeling: softmax scale × gm(factor, mscale_all_dim)² when the type scales and mscale_all_dim is truthy.
double mla_softmax(const Model& model, const RopeSetup& setup);
// YaRN as vLLM and SGLang run it for MLA models (DeepseekScalingRotaryEmbedding): the ramp always truncated,
// magnitude gm(f, mscale)/gm(f, mscale_all_dim) on cos/sin, softmax scale × gm(f, mscale_all_dim)²; `note` says whose.
EngineSetupView deepseek_yarn_view(const Model& model, const RopeSetup& setup, int index, Note note);
// The cos/sin magnitude gm(f, mscale)/gm(f, mscale_all_dim) that DeepSeek-style YaRN applies (attention_factor unread).
double deepseek_yarn_magnitude(const RopeSetup& setup);

// MiMo-V2's decoder layers in vLLM (mimo_v2.py @9aaf83ef is_compressed_softmax_layer) and SGLang (mimo_v2.py
// @8905cbd4, line 770) read config.hybrid_layer_pattern without a default: a config in transformers' native layout
// (layer_types) does not load. Why, when it does not.
std::optional<std::string> mimo_v2_refusal(const Model& model);

// A model_type read by the class its architectures names (normalize: not a type ropelens knows) with no auto_map: an
// engine's config loader asks AutoConfig for that model_type before it dispatches on the class, and neither pinned
// engine registers a config class under such a name (SGLang's deepseek_ref re-packaging of DeepSeek-V4).
bool model_type_needs_registering(const Model& model);

// DeepSeek-V4 as vLLM (deepseek_v4.py DeepseekV4Attention @f1b76c19) and SGLang (deepseek_v4.py MqaAttentionBase
// @8905cbd4: precompute_freqs_cis with the config's YaRN on every layer) run each layer: the config's YaRN on the
// layer's own base (compress_rope_theta or rope_theta), magnitude 1, the sliding layers included. Other models: as is.
RopeSetup deepseek_v4_served(const Model& model, const RopeSetup& setup);

// vLLM and SGLang hand each layer type's own RoPE dict to their rotary embedding, so a truncate nested there
// counts (transformers reads it only at the top level); `notes` says so where it changes the setup.
RopeSetup layer_dict_reading(const RopeSetup& setup, std::vector<Note>& notes);

// vLLM's _get_and_verify_max_len and SGLang's get_context_length fall back to 2048 tokens when they find no
// length key (ALiBi and T5 models).
inline constexpr std::int64_t kEngineDefaultLength = 2048;
bool states_no_length(const Model& model);  // no length key, and no class default either
LengthLimit assumed_length_limit();         // the 2048-token default, as its derivation says

// The global setup whose dict decides a model-level value (the first one without a window, else the first).
const RopeSetup* deciding_setup(const Model& model);

std::string fmt_number(double value);  // up to 6 significant digits
// Python's int() of a length in tokens (toward zero). Python's int has no upper bound; past 2^63 tokens (a factor
// of 1e30, say) this gives the largest int64, a limit no target reaches either way.
std::int64_t whole_tokens(double tokens);

}  // namespace ropelens::engine_detail
