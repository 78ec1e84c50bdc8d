// SGLang's KV cache: a token pool sized for N (pages of 1 token); with full and sliding layers both present the
// pool splits and sliding layers get swa_full_tokens_ratio of it; MLA keeps its latent. Cached in the model's dtype
// (auto) or fp8_e4m3 (docs/engines.md, "KV cache").
#include <algorithm>
#include <cmath>

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

namespace {

// _generate_prefill_cuda_graph_batch_sizes: the prefill CUDA-graph sizes up to max_bs.
int prefill_graph_sizes(std::int64_t max_bs) {
  int count = 0;
  const auto add = [&](std::int64_t from, std::int64_t to, std::int64_t step) {
    for (std::int64_t size = from; size <= to && size <= max_bs; size += step) ++count;
  };
  add(4, 32, 4);
  add(48, 256, 16);
  add(288, 512, 32);
  add(576, 1024, 64);
  add(1280, 4096, 256);
  add(4608, max_bs, 512);
  return count;
}

}  // namespace

// python/sglang/srt/server_args.py, _handle_gpu_memory_settings (8905cbd4): with no --mem-fraction-static, SGLang
// sets chunked_prefill_size and the decode CUDA-graph max_bs by the GPU's memory, reserves
// 512 + 1.5·max(chunk, 2048) + tp/8·1024 + 2·max_bs + 8 per prefill graph size (1536 for MLA) MiB, at least
// 10240 MiB above 60 GiB, and takes round((gpu − reserved) / gpu, 3).
MemoryShare sglang_memory_share(const MemoryRequest& request) {
  if (request.deployment && request.deployment->pins(EngineVersion::sglang_ktransformers))
    return {kKtransformersMemFraction, "KTransformers' kt run passes --mem-fraction-static 0.98"};
  const double gpu = static_cast<double>(request.gpu_bytes) / static_cast<double>(1ULL << 20);
  const bool small_tp = request.tp < 4;
  std::int64_t chunk = 8192;
  std::int64_t max_bs = small_tp ? 256 : 512;
  if (gpu < 20 * 1024) {
    chunk = 2048;
    max_bs = 8;
  } else if (gpu < 35 * 1024) {
    chunk = 2048;
    max_bs = small_tp ? 24 : 80;
  } else if (gpu < 60 * 1024) {
    chunk = 4096;
    max_bs = small_tp ? 32 : 160;
  } else if (gpu >= 160 * 1024) {
    chunk = 16384;
    max_bs = 512;
  }
  const bool mla = request.model != nullptr && request.model->uses_mla();
  const double graphs = 2.0 * static_cast<double>(max_bs) + (mla ? 1536.0 : 8.0 * prefill_graph_sizes(chunk));
  double reserved = 512.0 + 1.5 * static_cast<double>(std::max<std::int64_t>(chunk, 2048)) +
                    static_cast<double>(request.tp) / 8.0 * 1024.0 + graphs;
  if (gpu > 60 * 1024) reserved = std::max(reserved, 10.0 * 1024.0);
  const double fraction = std::round((gpu - reserved) / gpu * 1000.0) / 1000.0;
  return {fraction,
          fmt::format("SGLang's mem_fraction_static: round(({:.0f} MiB − {:.0f} MiB reserved) / {:.0f} MiB, 3)", gpu,
                      reserved, gpu)};
}

// python/sglang/srt/configs/model_config.py, _get_and_verify_dtype: dtype "auto" serves a float32 config in
// float16 (bfloat16 for Gemma), and the "auto" cache follows the model's dtype.
KvDtype sglang_served_dtype(KvDtype config_dtype) { return config_dtype == KvDtype::f32 ? KvDtype::f16 : config_dtype; }

}  // namespace ropelens::engine_detail
