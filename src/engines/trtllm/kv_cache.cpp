// TensorRT-LLM's KV cache (PyTorch backend): a paged pool in blocks of tokens_per_block (32), every attention layer
// keeping every token of the sequence (a window is applied to the pool only with max_attention_window), MLA its
// latent; cached in the model's dtype unless kv_cache_config.dtype (YAML) says fp8. The pool takes
// kv_cache_free_gpu_memory_fraction (0.9) of the memory free after the weights (docs/engines.md, "KV cache").
#include <algorithm>

#include <fmt/format.h>

#include "trtllm.hpp"

namespace ropelens::engine_detail {
namespace {

constexpr double kTrtllmFreeFraction = 0.9;  // KvCacheConfig.free_gpu_memory_fraction

}  // namespace

KvCacheView trtllm_kv_layout(const kv_detail::CachingLayers& model, std::int64_t tokens, KvDtype dtype) {
  using namespace kv_detail;
  const std::int64_t blocks = round_up(tokens, kTrtllmBlockTokens);
  std::vector<LayerTokens> kept;
  for (const auto& layer : model.layers) {
    const KvRow row = layer.latent.value_or(layer.heads);
    if (layer.caching != LayerCaching::keeps_tokens)
      kept.push_back(keeps_nothing(layer, "no attention: a separate state, not counted"));
    else kept.push_back({blocks, row, fmt::format("paged: N rounded up to blocks of {}", kTrtllmBlockTokens)});
  }
  KvCacheView view = make_view(fmt::format("paged KV cache in blocks of {} tokens; every attention layer keeps every "
                                           "token (no max_attention_window); MLA keeps its latent",
                                           kTrtllmBlockTokens),
                               model.layers, kept, dtype);
  view.assumptions = {fmt::format("tokens_per_block {}", kTrtllmBlockTokens), "max_attention_window unset"};
  return view;
}

CacheDtypeFlag trtllm_cache_dtype(KvDtype dtype, KvDtype model_dtype) {
  if (dtype == model_dtype) return {"", std::nullopt};
  if (dtype == KvDtype::fp8)
    return {"", std::string("TensorRT-LLM sets an fp8 cache in the --extra_llm_api_options YAML (kv_cache_config: "
                            "dtype: fp8), which the printed command does not carry yet")};
  return {"", fmt::format("TensorRT-LLM caches in the model's dtype ({}) or fp8", to_string(model_dtype))};
}

// kv_cache_free_gpu_memory_fraction is a share of the memory left after the weights: as a share of the whole GPU,
// 0.9 + 0.1 × weights / GPU.
MemoryShare trtllm_memory_share(const MemoryRequest& request) {
  double weights = 0.0;
  if (request.weights_bytes && request.gpu_bytes > 0)
    weights =
        static_cast<double>(*request.weights_bytes) / std::max(1, request.tp) / static_cast<double>(request.gpu_bytes);
  const double fraction = std::min(1.0, kTrtllmFreeFraction + (1.0 - kTrtllmFreeFraction) * weights);
  return {fraction, fmt::format("TensorRT-LLM's kv_cache_free_gpu_memory_fraction {} of the memory left after the "
                                "weights: {} + {} × weights/GPU = {:.4g} of the GPU",
                                fmt_number(kTrtllmFreeFraction), fmt_number(kTrtllmFreeFraction),
                                fmt_number(1.0 - kTrtllmFreeFraction), fraction)};
}

}  // namespace ropelens::engine_detail
