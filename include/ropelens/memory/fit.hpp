// The longest sequence whose KV cache fits a byte budget under one cache layout (kv_layers.hpp): the same layouts
// inspect and --memory report, searched over the length. Each engine's layout and granularity are its registry
// row's (engines/kv_cache.hpp gives the search per engine); fit_model (report/fit_report.hpp) builds the table.
#pragma once

#include <cstdint>

#include "ropelens/memory/kv_cache.hpp"
#include "ropelens/memory/kv_layers.hpp"

namespace ropelens {

struct KvFit {
  std::int64_t tokens = 0;     // the longest N ≤ the ceiling whose cache fits; 0 when not one token fits
  std::uint64_t kv_bytes = 0;  // the layout's cache at that N
};

// Searches N in [1, ceiling] (a cache never shrinks as N grows) for the longest N whose cache under `layout` is at
// most `kv_budget` bytes. A layout that rounds N up to its granularity lands the answer on a whole block, page or
// cell pad. Without a per-token figure (no head count) the result is 0 tokens.
KvFit longest_kv_fit(const Model& model, KvLayout layout, KvDtype dtype, std::uint64_t kv_budget, std::int64_t ceiling);

}  // namespace ropelens
