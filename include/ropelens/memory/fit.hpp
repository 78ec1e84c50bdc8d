// The longest sequence whose KV cache fits a byte budget, as each engine lays its cache out (kv_cache.hpp): the same
// per-engine layouts inspect and --memory report, searched over the length.
#pragma once

#include <cstdint>

#include "ropelens/memory/kv_cache.hpp"

namespace ropelens {

// The tokens an engine allocates its cache in: vLLM blocks of 16, SGLang pages of 1, llama.cpp cells padded to 256,
// transformers one token at a time (docs/engines.md, "KV cache").
std::int64_t kv_granularity(Engine engine);

struct KvFit {
  std::int64_t tokens = 0;     // the longest N ≤ the ceiling whose cache fits; 0 when not one token fits
  std::uint64_t kv_bytes = 0;  // the engine's cache at that N
};

// Searches N in [1, ceiling] (an engine's cache never shrinks as N grows) for the longest N whose engine cache is
// at most `kv_budget` bytes. Without a per-token figure (no head count) the result is 0 tokens.
KvFit longest_kv_fit(const Model& model, Engine engine, KvDtype dtype, std::uint64_t kv_budget, std::int64_t ceiling);

}  // namespace ropelens
