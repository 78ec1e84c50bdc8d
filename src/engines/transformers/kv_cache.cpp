// transformers' KV cache: DynamicCache keeps every token, sliding and chunked layers their last window - 1
// (DynamicSlidingWindowLayer), MLA full K and V per head; cached in the model's floating dtype (docs/engines.md,
// "KV cache").
#include <fmt/format.h>

#include "transformers.hpp"

namespace ropelens::engine_detail {

KvCacheView transformers_kv_layout(const kv_detail::CachingLayers& model, std::int64_t tokens, KvDtype dtype) {
  using namespace kv_detail;
  std::vector<LayerTokens> kept;
  for (const auto& layer : model.layers) {
    if (layer.caching != LayerCaching::keeps_tokens) {
      kept.push_back(keeps_nothing(layer, "no attention: its state is not a per-token cache"));
    } else if (keeps_window(layer) && *layer.window_tokens - 1 < tokens) {
      kept.push_back(
          {*layer.window_tokens - 1, layer.heads,
           fmt::format("DynamicSlidingWindowLayer keeps the last window - 1 = {} tokens", *layer.window_tokens - 1)});
    } else {
      kept.push_back({tokens, layer.heads, "DynamicLayer keeps every token"});
    }
  }
  KvCacheView view = make_view(
      "DynamicCache: sliding and chunked layers keep their last window - 1 tokens; MLA caches "
      "full K and V per head",
      model.layers, kept, dtype);
  return view;
}

CacheDtypeFlag transformers_cache_dtype(KvDtype dtype, KvDtype /*model_dtype*/) {
  if (dtype == KvDtype::f32 || dtype == KvDtype::bf16 || dtype == KvDtype::f16) return {"", std::nullopt};
  return {"", "transformers' DynamicCache keeps the model's dtype"};
}

}  // namespace ropelens::engine_detail
