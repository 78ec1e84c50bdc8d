// ExLlamaV3's KV cache (exllamav3/cache/cache.py @4f8ad012): one cache of cache_size tokens (a multiple of the
// 256-token page, TabbyAPI's adjust_cache_size rounds up) for every attention layer; MLA layers keep their latent;
// FP16 by default, or its own 2–8 bit modes (cache_mode Q4/Q6/Q8) (docs/engines.md, "KV cache").
#include <fmt/format.h>

#include "exllamav3.hpp"

namespace ropelens::engine_detail {

KvCacheView exllamav3_kv_layout(const kv_detail::CachingLayers& model, std::int64_t tokens, KvDtype dtype) {
  using namespace kv_detail;
  const std::int64_t cache_size = round_up(tokens, kExl3PageTokens);
  std::vector<LayerTokens> kept;
  for (const auto& layer : model.layers) {
    const KvRow row = layer.latent.value_or(layer.heads);
    if (layer.caching != LayerCaching::keeps_tokens)
      kept.push_back(keeps_nothing(layer, "no attention: a recurrent state, not counted"));
    else kept.push_back({cache_size, row, fmt::format("cache_size: N rounded up to pages of {}", kExl3PageTokens)});
  }
  KvCacheView view = make_view(fmt::format("one cache of cache_size tokens (pages of {}) for every attention layer; "
                                           "MLA keeps its latent",
                                           kExl3PageTokens),
                               model.layers, kept, dtype);
  view.assumptions = {fmt::format("PAGE_SIZE {}", kExl3PageTokens), "cache_mode FP16"};
  return view;
}

CacheDtypeFlag exllamav3_cache_dtype(KvDtype dtype, KvDtype /*model_dtype*/) {
  if (dtype == KvDtype::f16) return {"FP16", std::nullopt};
  return {"", std::string("ExLlamaV3 caches in FP16 (cache_mode FP16) or its own 2–8 bit modes (Q4, Q6, Q8, "
                          "\"k,v\" bits), which ropelens does not size")};
}

// TabbyAPI's cache_mode defaults to FP16, whatever the config's dtype.
KvDtype exllamav3_served_dtype(KvDtype /*config_dtype*/) { return KvDtype::f16; }

}  // namespace ropelens::engine_detail
