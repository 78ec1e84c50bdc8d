// KV-cache memory for one sequence of N tokens: what each attention layer keeps, as a window-aware cache with MLA's
// latent holds it; each engine's own layout (src/engines/<engine>/kv_cache.cpp) is written in the same arithmetic
// (kv_layers.hpp, docs/engines.md "KV cache"). Pure integer arithmetic over the Model.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ropelens/model/model.hpp"

namespace ropelens {

enum class KvDtype { f32, bf16, f16, fp8, q8_0, q4_0 };
std::string_view to_string(KvDtype dtype);
// "f32", "bf16", "f16", "fp8", "q8_0", "q4_0"; nullopt for anything else.
std::optional<KvDtype> parse_kv_dtype(std::string_view name);
// The size of `values` values: llama.cpp's q8_0 and q4_0 blocks keep 32 values in 34 and 18 bytes (ggml-common.h),
// and a row is a whole number of blocks.
std::uint64_t kv_bytes(KvDtype dtype, std::uint64_t values);
double bytes_per_element(KvDtype dtype);

struct KvDtypeChoice {
  KvDtype dtype = KvDtype::bf16;
  Provenance from;
};
// The dtype the weights are stored in (torch_dtype or dtype), which transformers and vLLM cache in by default;
// else bf16.
KvDtypeChoice default_kv_dtype(const Model& model);

// Values one layer keeps per token.
struct KvRow {
  std::int64_t k = 0;
  std::int64_t v = 0;
  std::int64_t values() const { return k + v; }
  friend bool operator==(const KvRow&, const KvRow&) = default;
};

// Consecutive or like layers that keep the same tokens in rows of the same width.
struct KvGroup {
  std::string name;  // the RoPE setup's name, "nope", or the layer type of layers that keep nothing
  std::vector<int> layers;
  std::int64_t tokens_held = 0;  // per layer
  KvRow row;
  std::uint64_t bytes = 0;  // every layer of the group
  std::string holds;        // why tokens_held is what it is
};

struct KvCacheView {
  std::string_view engine;  // the engine's name ("vllm"); "" for the window-aware cache, the least any engine keeps
  std::string summary;      // what this cache keeps, in one sentence
  std::vector<KvGroup> groups;
  std::uint64_t total_bytes = 0;
  std::vector<std::string> assumptions;  // deployment settings the figure depends on

  std::string_view name() const { return engine.empty() ? "window-aware" : engine; }
};

struct KvCacheReport {
  KvDtype dtype = KvDtype::bf16;
  Provenance dtype_from;
  std::int64_t tokens = 0;
  std::optional<std::string> not_computed;  // why there is no figure (no head count, an encoder-decoder model)
  KvCacheView cache;                        // the window-aware cache: the least any engine keeps
  std::vector<KvCacheView> engines;         // one per engine, in registry order
  std::optional<Field<std::uint64_t>> weights_bytes;
  std::vector<std::string> notes;
};

struct KvRequest {
  std::int64_t tokens = 0;
  std::optional<KvDtype> dtype;  // none: default_kv_dtype
};

}  // namespace ropelens
