// What each layer of a model caches per token, before any engine decides how many tokens it keeps: the arithmetic
// each engine's KV-cache layout (src/engines/<engine>/kv_cache.cpp) is written in.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ropelens/memory/kv_cache.hpp"

namespace ropelens::kv_detail {

enum class LayerCaching { keeps_tokens, no_attention, shares_kv };

struct CachingLayer {
  int index = 0;
  std::string group;  // the RoPE setup's name, "nope", "all", or the layer type of a layer without attention
  LayerCaching caching = LayerCaching::keeps_tokens;
  int kv_source = -1;  // shares_kv: the layer whose cache it reads
  AttentionKind attention = AttentionKind::global;
  std::optional<std::int64_t> window_tokens;  // sliding window or attention chunk
  KvRow heads;                                // K and V of every key/value head
  int kv_heads = 0;                           // how many key/value heads `heads` holds
  std::optional<KvRow> latent;                // MLA: the compressed latent and the shared rotary key part
};

// Every layer of the model, or a reason the cache cannot be sized.
struct CachingLayers {
  std::vector<CachingLayer> layers;
  std::optional<std::string> not_computed;
};
CachingLayers caching_layers(const Model& model);
// What one of `tp` GPUs caches when an engine splits the key/value heads across them: heads / tp per GPU, and one
// (every GPU holding a replica) when there are fewer heads than GPUs. MLA's latent is not split: every GPU keeps it.
CachingLayers sharded_by_heads(CachingLayers model, int tp);

// What one engine keeps in one layer.
struct LayerTokens {
  std::int64_t tokens = 0;
  KvRow row;
  std::string holds;
};

// Groups like layers in order of first appearance and adds up their bytes.
KvCacheView make_view(std::string summary, const std::vector<CachingLayer>& layers,
                      const std::vector<LayerTokens>& kept, KvDtype dtype);

std::int64_t round_up(std::int64_t value, std::int64_t multiple);

inline bool keeps_window(const CachingLayer& layer) { return layer.window_tokens.has_value(); }
// What a layer that keeps no tokens holds: another layer's KV, or `state` (a layer without attention).
LayerTokens keeps_nothing(const CachingLayer& layer, std::string_view state);

}  // namespace ropelens::kv_detail

namespace ropelens {

// One engine's cache for one sequence of N tokens: the rows and tokens each layer keeps.
using KvLayout = KvCacheView (*)(const kv_detail::CachingLayers& model, std::int64_t tokens, KvDtype dtype);
struct EngineKvLayout {
  std::string_view engine;  // its name, as KvCacheView::engine holds it
  KvLayout layout;
};

// The window-aware cache and one view per layout (engines/kv_cache.hpp passes the registry's, in its order).
KvCacheReport kv_cache_report(const Model& model, const KvRequest& request, const std::vector<EngineKvLayout>& layouts);

}  // namespace ropelens
