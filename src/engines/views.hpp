// Internal to the engine views: one builder per engine file and the helpers they share.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "llama_cpp/llama_cpp_math.hpp"
#include "ropelens/engines/engine_report.hpp"
#include "ropelens/engines/engine_views.hpp"
#include "ropelens/engines/method_override.hpp"

namespace ropelens::engine_detail {

// One engine per file: transformers.cpp, vllm.cpp, sglang.cpp, llama_cpp.cpp.
EngineView transformers_view(const Model& model, EngineVersion version, std::int64_t target_tokens);
EngineView vllm_view(const Model& model, EngineVersion version, std::int64_t target_tokens);
EngineView sglang_view(const Model& model, EngineVersion version, std::int64_t target_tokens);
EngineView llama_cpp_view(const Model& model, EngineVersion version, std::int64_t target_tokens);

// What convert_hf_to_gguf.py writes for one setup, as llama.cpp's loader then holds it (llama_cpp_convert.cpp).
struct GgufRope {
  std::string scaling_type = "none";  // none | linear | yarn | longrope
  float factor = 0.0f;                // rope.scaling.factor (0: freq_scale 1)
  std::int64_t n_ctx_train = 0;
  std::int64_t n_ctx_orig_yarn = 0;  // original_context_length, else n_ctx_train
  float yarn_log_mul = 0.0f;         // after the loader's DEEPSEEK2 /0.1
  float rope_attn_factor = 1.0f;     // rope.scaling.attn_factor
  float beta_fast = 32.0f;
  float beta_slow = 1.0f;
  double freq_base = 10000.0;
  int n_rot = 0;
  std::vector<float> rope_freqs;  // llama3 divisors
  std::vector<float> long_factors;
  std::vector<float> short_factors;
};

struct GgufPlan {
  GgufConversion conversion;
  std::vector<GgufRope> ropes;  // one per Model::setups entry
};
GgufPlan plan_gguf(const Model& model);

// LlamaModel.generate_extra_tensors' llama3 divisors, in torch float32.
std::vector<float> converter_llama3_divisors(double base, int dim, double factor, double low, double high,
                                             std::int64_t original_tokens);
// The magnitude ggml's rope kernel applies to cos/sin for this file (llama-context.cpp since PR #17945).
double llama_cpp_rope_magnitude(const GgufRope& rope, bool deepseek2);

// model_classes.cpp: why this version has no class for the config's model_type (nothing when it has one).
std::optional<std::string> missing_class(const Model& model, EngineVersion version);

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
