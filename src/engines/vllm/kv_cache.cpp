// vLLM's KV cache: v1 KV cache specs per request, blocks of 16 tokens; sliding layers keep window - 1 +
// max_num_batched_tokens under the hybrid KV cache manager, which chunked attention turns off; MLA keeps its latent.
// Cached in the model's dtype (auto) or fp8 (docs/engines.md, "KV cache").
#include <algorithm>

#include <fmt/format.h>

#include "../serving.hpp"
#include "vllm.hpp"

namespace ropelens::engine_detail {
namespace {

constexpr std::int64_t kVllmBatchedTokens = 8192;  // --max-num-batched-tokens of vllm serve on large GPUs

bool has_chunked(const kv_detail::CachingLayers& model) {
  return std::any_of(model.layers.begin(), model.layers.end(), [](const kv_detail::CachingLayer& l) {
    return l.attention == AttentionKind::chunked && l.window_tokens;
  });
}

}  // namespace

KvCacheView vllm_kv_layout(const kv_detail::CachingLayers& model, std::int64_t tokens, KvDtype dtype) {
  using namespace kv_detail;
  const bool hybrid_manager = !has_chunked(model);
  const std::int64_t full_tokens = round_up(tokens, kVllmBlockTokens);
  std::vector<LayerTokens> kept;
  for (const auto& layer : model.layers) {
    const KvRow row = layer.latent.value_or(layer.heads);
    if (layer.caching != LayerCaching::keeps_tokens) {
      kept.push_back(keeps_nothing(layer, "no attention: MambaSpec state, constant in length, not counted"));
    } else if (keeps_window(layer) && hybrid_manager) {
      const std::int64_t live = std::min(*layer.window_tokens - 1 + kVllmBatchedTokens, tokens);
      kept.push_back({(live + kVllmBlockTokens - 1) / kVllmBlockTokens * kVllmBlockTokens + kVllmBlockTokens, row,
                      fmt::format("SlidingWindowSpec: (cdiv(min(window - 1 + {}, N), {}) + 1) blocks",
                                  kVllmBatchedTokens, kVllmBlockTokens)});
    } else {
      kept.push_back({full_tokens, row,
                      keeps_window(layer) ? "hybrid KV cache manager off: every token, cdiv(N, 16) blocks"
                                          : "FullAttentionSpec: cdiv(N, 16) blocks"});
    }
  }
  const std::string windows =
      hybrid_manager ? fmt::format("sliding layers keep window - 1 + max_num_batched_tokens {}", kVllmBatchedTokens)
                     : std::string(
                           "chunked attention turns the hybrid KV cache manager off, so every layer keeps "
                           "every token");
  KvCacheView view = make_view(
      fmt::format("v1 KV cache specs, per request: blocks of {}; {}; MLA keeps its latent", kVllmBlockTokens, windows),
      model.layers, kept, dtype);
  view.assumptions = {fmt::format("block_size {}", kVllmBlockTokens),
                      fmt::format("max_num_batched_tokens {}", kVllmBatchedTokens),
                      hybrid_manager ? "hybrid KV cache manager on (vLLM's default on GPUs)"
                                     : "hybrid KV cache manager off (vLLM's default with chunked local attention)"};
  return view;
}

CacheDtypeFlag vllm_cache_dtype(KvDtype dtype, KvDtype model_dtype) {
  if (dtype == model_dtype) return {"auto", std::nullopt};
  if (dtype == KvDtype::fp8) return {"fp8", std::nullopt};
  return {"", fmt::format("vLLM caches in the model's dtype ({}, auto) or fp8", to_string(model_dtype))};
}

// vllm/config/cache.py: gpu_memory_utilization defaults to 0.92 since PR #38284 (merged 2026-04-21, "CUDA graph
// memory profiling is enabled (default since v0.21.0)"), 0.9 before.
MemoryShare vllm_memory_share(const MemoryRequest& request) {
  if (pins_release_before(request.deployment, Engine::vllm, "0.21.0"))
    return {0.9, "vLLM's default --gpu-memory-utilization before 0.21.0"};
  return {0.92, "vLLM's default --gpu-memory-utilization since 0.21.0 (PR #38284)"};
}

// vllm/config/model.py, _resolve_auto_dtype: dtype "auto" downcasts a float32 config to the platform's first
// supported dtype (bfloat16 on CUDA), and the "auto" cache follows the model's dtype.
KvDtype vllm_served_dtype(KvDtype config_dtype) { return config_dtype == KvDtype::f32 ? KvDtype::bf16 : config_dtype; }

}  // namespace ropelens::engine_detail
