// llama.cpp's KV cache: llama_kv_cache pads n_ctx to 256 cells; SWA layers keep n_swa + n_ubatch (llama-server's
// swa_full false); MLA keeps its latent as K and no V. Cache types are ggml's, with no fp8 (docs/engines.md,
// "KV cache").
#include <algorithm>

#include <fmt/format.h>

#include "llama_cpp.hpp"

namespace ropelens::engine_detail {
namespace {

constexpr std::int64_t kLlamaCppMicroBatch = 512;  // -ub default

}  // namespace

KvCacheView llama_cpp_kv_layout(const kv_detail::CachingLayers& model, std::int64_t tokens, KvDtype dtype) {
  using namespace kv_detail;
  const std::int64_t cells = round_up(tokens, kLlamaCppPadding);
  std::vector<LayerTokens> kept;
  for (const auto& layer : model.layers) {
    const KvRow row = layer.latent.value_or(layer.heads);
    if (layer.caching != LayerCaching::keeps_tokens) {
      kept.push_back(keeps_nothing(layer, "no attention: recurrent memory, not counted"));
    } else if (keeps_window(layer)) {
      kept.push_back({round_up(std::min(cells, *layer.window_tokens + kLlamaCppMicroBatch), kLlamaCppPadding), row,
                      fmt::format("SWA cache: min(n_ctx, n_swa + n_ubatch {}) cells, padded to {}", kLlamaCppMicroBatch,
                                  kLlamaCppPadding)});
    } else {
      kept.push_back({cells, row, fmt::format("n_ctx padded to {} cells", kLlamaCppPadding)});
    }
  }
  KvCacheView view = make_view(fmt::format("llama_kv_cache: n_ctx padded to {} cells; SWA layers n_swa + n_ubatch {} "
                                           "(llama-server's swa_full false); MLA keeps its latent as K, no V",
                                           kLlamaCppPadding, kLlamaCppMicroBatch),
                               model.layers, kept, dtype);
  view.assumptions = {fmt::format("n_ubatch {}", kLlamaCppMicroBatch), "one sequence",
                      "swa_full false (llama-server and llama-cli; the C API default true keeps n_ctx cells)"};
  return view;
}

CacheDtypeFlag llama_cpp_cache_dtype(KvDtype dtype, KvDtype /*model_dtype*/) {
  if (dtype == KvDtype::fp8) return {"", "llama.cpp has no fp8 cache type (f32, f16, bf16, q8_0, q4_0, ...)"};
  return {std::string(to_string(dtype)), std::nullopt};
}

}  // namespace ropelens::engine_detail
