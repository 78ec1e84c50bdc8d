// MLX-LM's KV cache (mlx_lm/models/cache.py @d78bf58e): a KVCache per layer that grows in steps of 256 tokens, and
// the RotatingKVCache of the model files that give sliding layers one (max_size the window); cached in the model's
// dtype. mlx_lm.generate's --kv-bits quantizes it; mlx_lm.server does not (docs/engines.md, "KV cache").
#include <algorithm>

#include <fmt/format.h>

#include "mlx_lm.hpp"

namespace ropelens::engine_detail {

KvCacheView mlx_lm_kv_layout(const kv_detail::CachingLayers& model, std::int64_t tokens, KvDtype dtype) {
  using namespace kv_detail;
  const std::int64_t stepped = round_up(tokens, kMlxCacheStep);
  std::vector<LayerTokens> kept;
  for (const auto& layer : model.layers) {
    const KvRow row = layer.latent.value_or(layer.heads);
    if (layer.caching != LayerCaching::keeps_tokens) {
      kept.push_back(keeps_nothing(layer, "no attention: an ArraysCache state, not counted"));
    } else if (keeps_window(layer)) {
      kept.push_back({std::min(stepped, *layer.window_tokens), row, "RotatingKVCache: max_size the window"});
    } else {
      kept.push_back({stepped, row, fmt::format("KVCache: N rounded up to steps of {}", kMlxCacheStep)});
    }
  }
  KvCacheView view = make_view(
      fmt::format("KVCache per layer in steps of {} tokens; sliding layers a RotatingKVCache of the window; MLA keeps "
                  "its latent",
                  kMlxCacheStep),
      model.layers, kept, dtype);
  view.assumptions = {fmt::format("KVCache.step {}", kMlxCacheStep), "one sequence"};
  return view;
}

CacheDtypeFlag mlx_lm_cache_dtype(KvDtype dtype, KvDtype model_dtype) {
  if (dtype == model_dtype) return {"", std::nullopt};
  return {"", fmt::format("mlx_lm.server caches in the model's dtype ({}); mlx_lm.generate --kv-bits quantizes with "
                          "MLX's own groups, not ggml's blocks",
                          to_string(model_dtype))};
}

}  // namespace ropelens::engine_detail
