// Internal to the KV-cache math: what each layer of a model caches per token, before any engine decides how many
// tokens it keeps.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ropelens/memory/kv_cache.hpp"

namespace ropelens::kv_detail {

// The granularity each engine allocates its cache in (docs/engines.md, "KV cache").
inline constexpr std::int64_t kVllmBlockTokens = 16;   // vLLM's default block size on CUDA
inline constexpr std::int64_t kSglangPageTokens = 1;   // SGLang's default page size
inline constexpr std::int64_t kLlamaCppPadding = 256;  // llama.cpp pads n_ctx and the SWA cache to 256 cells

enum class LayerCaching { keeps_tokens, no_attention, shares_kv };

struct CachingLayer {
  int index = 0;
  std::string group;  // the RoPE setup's name, "nope", "all", or the layer type of a layer without attention
  LayerCaching caching = LayerCaching::keeps_tokens;
  int kv_source = -1;  // shares_kv: the layer whose cache it reads
  AttentionKind attention = AttentionKind::global;
  std::optional<std::int64_t> window_tokens;  // sliding window or attention chunk
  KvRow heads;                                // K and V of every key/value head
  std::optional<KvRow> latent;                // MLA: the compressed latent and the shared rotary key part
};

// Every layer of the model, or a reason the cache cannot be sized.
struct CachingLayers {
  std::vector<CachingLayer> layers;
  std::optional<std::string> not_computed;
};
CachingLayers caching_layers(const Model& model);

// What one engine keeps in one layer.
struct LayerTokens {
  std::int64_t tokens = 0;
  KvRow row;
  std::string holds;
};

// Groups like layers in order of first appearance and adds up their bytes.
KvCacheView make_view(std::optional<Engine> engine, std::string summary, const std::vector<CachingLayer>& layers,
                      const std::vector<LayerTokens>& kept, KvDtype dtype);

std::int64_t round_up(std::int64_t value, std::int64_t multiple);

KvCacheView transformers_view(const CachingLayers& model, std::int64_t tokens, KvDtype dtype);
KvCacheView vllm_view(const CachingLayers& model, std::int64_t tokens, KvDtype dtype);
KvCacheView sglang_view(const CachingLayers& model, std::int64_t tokens, KvDtype dtype);
KvCacheView llama_cpp_view(const CachingLayers& model, std::int64_t tokens, KvDtype dtype);
// The engine's layout (a switch over Engine: the compiler checks that every engine has one).
KvCacheView engine_view(Engine engine, const CachingLayers& model, std::int64_t tokens, KvDtype dtype);

}  // namespace ropelens::kv_detail
