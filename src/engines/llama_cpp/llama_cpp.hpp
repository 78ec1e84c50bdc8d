// Internal: what the llama.cpp folder provides to its registry row (registry.cpp).
#pragma once

#include "../views.hpp"
#include "llama_cpp_math.hpp"
#include "ropelens/engines/registry.hpp"

namespace ropelens::engine_detail {

inline constexpr std::int64_t kLlamaCppPadding = 256;  // llama.cpp pads n_ctx and the SWA cache to 256 cells

extern const VersionTable kLlamaCppVersions;                                                       // versions.cpp
EngineView llama_cpp_view(const Model& model, EngineVersion version, std::int64_t target_tokens);  // rope_view.cpp
KvCacheView llama_cpp_kv_layout(const kv_detail::CachingLayers& model, std::int64_t tokens,
                                KvDtype dtype);  // kv_cache.cpp
CacheDtypeFlag llama_cpp_cache_dtype(KvDtype dtype, KvDtype model_dtype);
std::vector<EngineSnippet> llama_cpp_snippets(const SnippetRequest& request);  // serve.cpp
extern const GgufRuntime kLlamaCppGguf;                                        // serve.cpp
extern const LaunchSyntax kLlamaCppLaunch;                                     // launch.cpp, ollama_launch.cpp

// What convert_hf_to_gguf.py writes for one setup, as llama.cpp's loader then holds it (convert.cpp).
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

}  // namespace ropelens::engine_detail
