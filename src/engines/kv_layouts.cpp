// How many tokens each engine keeps per layer for one sequence of N tokens, and in which rows. The sources are
// cited in docs/engines.md, "KV cache".
#include <algorithm>

#include <fmt/format.h>

#include "ropelens/memory/kv_layers.hpp"

namespace ropelens::kv_detail {
namespace {

constexpr std::int64_t kVllmBatchedTokens = 8192;  // --max-num-batched-tokens of vllm serve on large GPUs
constexpr double kSglangSwaRatio = 0.8;            // --swa-full-tokens-ratio default
constexpr std::int64_t kLlamaCppMicroBatch = 512;  // -ub default

LayerTokens nothing(const CachingLayer& layer, std::string_view state) {
  if (layer.caching == LayerCaching::shares_kv)
    return {0, {}, fmt::format("reuses the KV of layer {}", layer.kv_source)};
  return {0, {}, std::string(state)};
}

bool keeps_window(const CachingLayer& layer) { return layer.window_tokens.has_value(); }

bool has_chunked(const CachingLayers& model) {
  return std::any_of(model.layers.begin(), model.layers.end(),
                     [](const CachingLayer& l) { return l.attention == AttentionKind::chunked && l.window_tokens; });
}

// SGLang splits its pool only when full and sliding layers both exist.
bool has_hybrid_swa(const CachingLayers& model) {
  bool sliding = false;
  bool full = false;
  for (const auto& l : model.layers) {
    if (l.caching != LayerCaching::keeps_tokens) continue;
    (keeps_window(l) ? sliding : full) = true;
  }
  return sliding && full;
}

}  // namespace

KvCacheView transformers_view(const CachingLayers& model, std::int64_t tokens, KvDtype dtype) {
  std::vector<LayerTokens> kept;
  for (const auto& layer : model.layers) {
    if (layer.caching != LayerCaching::keeps_tokens) {
      kept.push_back(nothing(layer, "no attention: its state is not a per-token cache"));
    } else if (keeps_window(layer) && *layer.window_tokens - 1 < tokens) {
      kept.push_back(
          {*layer.window_tokens - 1, layer.heads,
           fmt::format("DynamicSlidingWindowLayer keeps the last window - 1 = {} tokens", *layer.window_tokens - 1)});
    } else {
      kept.push_back({tokens, layer.heads, "DynamicLayer keeps every token"});
    }
  }
  KvCacheView view = make_view(Engine::transformers,
                               "DynamicCache: sliding and chunked layers keep their last window - 1 tokens; MLA caches "
                               "full K and V per head",
                               model.layers, kept, dtype);
  return view;
}

KvCacheView vllm_view(const CachingLayers& model, std::int64_t tokens, KvDtype dtype) {
  const bool hybrid_manager = !has_chunked(model);
  const std::int64_t full_tokens = round_up(tokens, kVllmBlockTokens);
  std::vector<LayerTokens> kept;
  for (const auto& layer : model.layers) {
    const KvRow row = layer.latent.value_or(layer.heads);
    if (layer.caching != LayerCaching::keeps_tokens) {
      kept.push_back(nothing(layer, "no attention: MambaSpec state, constant in length, not counted"));
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
      Engine::vllm,
      fmt::format("v1 KV cache specs, per request: blocks of {}; {}; MLA keeps its latent", kVllmBlockTokens, windows),
      model.layers, kept, dtype);
  view.assumptions = {fmt::format("block_size {}", kVllmBlockTokens),
                      fmt::format("max_num_batched_tokens {}", kVllmBatchedTokens),
                      hybrid_manager ? "hybrid KV cache manager on (vLLM's default on GPUs)"
                                     : "hybrid KV cache manager off (vLLM's default with chunked local attention)"};
  return view;
}

KvCacheView sglang_view(const CachingLayers& model, std::int64_t tokens, KvDtype dtype) {
  const bool split_pool = has_hybrid_swa(model);
  std::vector<LayerTokens> kept;
  for (const auto& layer : model.layers) {
    const KvRow row = layer.latent.value_or(layer.heads);
    if (layer.caching != LayerCaching::keeps_tokens) {
      kept.push_back(nothing(layer, "no attention: kept in a separate state pool, not counted"));
    } else if (keeps_window(layer) && split_pool && layer.attention == AttentionKind::chunked) {
      kept.push_back({std::min(*layer.window_tokens, tokens), row,
                      "the chunked pool holds attention_chunk_size / context length of the full pool"});
    } else if (keeps_window(layer) && split_pool) {
      kept.push_back({static_cast<std::int64_t>(static_cast<double>(tokens) * kSglangSwaRatio), row,
                      fmt::format("the SWA pool holds swa_full_tokens_ratio {} of the full pool", kSglangSwaRatio)});
    } else {
      kept.push_back({tokens, row, "every token"});
    }
  }
  KvCacheView view =
      make_view(Engine::sglang,
                fmt::format("a token pool sized for N: sliding layers get swa_full_tokens_ratio {} of it; "
                            "MLA keeps its latent",
                            kSglangSwaRatio),
                model.layers, kept, dtype);
  if (split_pool) view.assumptions = {fmt::format("swa_full_tokens_ratio {}", kSglangSwaRatio)};
  return view;
}

KvCacheView llama_cpp_view(const CachingLayers& model, std::int64_t tokens, KvDtype dtype) {
  const std::int64_t cells = round_up(tokens, kLlamaCppPadding);
  std::vector<LayerTokens> kept;
  for (const auto& layer : model.layers) {
    const KvRow row = layer.latent.value_or(layer.heads);
    if (layer.caching != LayerCaching::keeps_tokens) {
      kept.push_back(nothing(layer, "no attention: recurrent memory, not counted"));
    } else if (keeps_window(layer)) {
      kept.push_back({round_up(std::min(cells, *layer.window_tokens + kLlamaCppMicroBatch), kLlamaCppPadding), row,
                      fmt::format("SWA cache: min(n_ctx, n_swa + n_ubatch {}) cells, padded to {}", kLlamaCppMicroBatch,
                                  kLlamaCppPadding)});
    } else {
      kept.push_back({cells, row, fmt::format("n_ctx padded to {} cells", kLlamaCppPadding)});
    }
  }
  KvCacheView view = make_view(Engine::llama_cpp,
                               fmt::format("llama_kv_cache: n_ctx padded to {} cells; SWA layers n_swa + n_ubatch {} "
                                           "(llama-server's swa_full false); MLA keeps its latent as K, no V",
                                           kLlamaCppPadding, kLlamaCppMicroBatch),
                               model.layers, kept, dtype);
  view.assumptions = {fmt::format("n_ubatch {}", kLlamaCppMicroBatch), "one sequence",
                      "swa_full false (llama-server and llama-cli; the C API default true keeps n_ctx cells)"};
  return view;
}

KvCacheView engine_view(Engine engine, const CachingLayers& model, std::int64_t tokens, KvDtype dtype) {
  switch (engine) {
    case Engine::transformers: return transformers_view(model, tokens, dtype);
    case Engine::vllm: return vllm_view(model, tokens, dtype);
    case Engine::sglang: return sglang_view(model, tokens, dtype);
    case Engine::llama_cpp: return llama_cpp_view(model, tokens, dtype);
  }
  return transformers_view(model, tokens, dtype);
}

}  // namespace ropelens::kv_detail
