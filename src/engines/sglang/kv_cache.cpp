// SGLang's KV cache: a token pool sized for N (pages of 1 token); with full and sliding layers both present the
// pool splits and sliding layers get swa_full_tokens_ratio of it; MLA keeps its latent. Cached in the model's dtype
// (auto) or fp8_e4m3 (docs/engines.md, "KV cache").
#include <algorithm>

#include <fmt/format.h>

#include "sglang.hpp"

namespace ropelens::engine_detail {
namespace {

constexpr double kSglangSwaRatio = 0.8;  // --swa-full-tokens-ratio default

// SGLang splits its pool only when full and sliding layers both exist.
bool has_hybrid_swa(const kv_detail::CachingLayers& model) {
  bool sliding = false;
  bool full = false;
  for (const auto& l : model.layers) {
    if (l.caching != kv_detail::LayerCaching::keeps_tokens) continue;
    (kv_detail::keeps_window(l) ? sliding : full) = true;
  }
  return sliding && full;
}

}  // namespace

KvCacheView sglang_kv_layout(const kv_detail::CachingLayers& model, std::int64_t tokens, KvDtype dtype) {
  using namespace kv_detail;
  const bool split_pool = has_hybrid_swa(model);
  std::vector<LayerTokens> kept;
  for (const auto& layer : model.layers) {
    const KvRow row = layer.latent.value_or(layer.heads);
    if (layer.caching != LayerCaching::keeps_tokens) {
      kept.push_back(keeps_nothing(layer, "no attention: kept in a separate state pool, not counted"));
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
      make_view(fmt::format("a token pool sized for N: sliding layers get swa_full_tokens_ratio {} of it; "
                            "MLA keeps its latent",
                            kSglangSwaRatio),
                model.layers, kept, dtype);
  if (split_pool) view.assumptions = {fmt::format("swa_full_tokens_ratio {}", kSglangSwaRatio)};
  return view;
}

CacheDtypeFlag sglang_cache_dtype(KvDtype dtype, KvDtype model_dtype) {
  if (dtype == model_dtype) return {"auto", std::nullopt};
  if (dtype == KvDtype::fp8) return {"fp8_e4m3", std::nullopt};
  return {"", fmt::format("SGLang caches in the model's dtype ({}, auto) or fp8", to_string(model_dtype))};
}

}  // namespace ropelens::engine_detail
