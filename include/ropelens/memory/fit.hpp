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

// How a model's KV cache is split over `gpus` GPUs: by key/value heads (kv_layers.hpp, sharded_by_heads), or by
// whole layers, each GPU holding 1/gpus of the cache (rounded up).
struct KvSplit {
  int gpus = 1;
  bool by_heads = true;
};

// The cache under `layout` for one sequence of `tokens` on one GPU of the split.
std::uint64_t kv_bytes_per_gpu(const kv_detail::CachingLayers& layers, KvLayout layout, KvDtype dtype,
                               std::int64_t tokens, KvSplit split);

// One GPU's memory as an engine divides it: the share it takes (its utilization), less a reserve, holds its part
// of the weights, and the rest is the KV cache's.
struct GpuBudget {
  std::uint64_t gpu_bytes = 0;      // one GPU's memory (--memory)
  double share = 1.0;               // the engine's share of it
  std::uint64_t reserve_bytes = 0;  // set aside for what is not counted (--reserve)
  std::uint64_t weights_bytes = 0;  // the whole model's weights, as the engine holds them
  int gpus = 1;                     // the weights are split evenly over them
};
struct BudgetSplit {
  std::uint64_t usable = 0;           // floor(gpu_bytes · share) − reserve_bytes (0 when the reserve is larger)
  std::uint64_t weights_per_gpu = 0;  // ceil(weights_bytes / gpus)
  std::uint64_t kv_budget = 0;        // usable − weights_per_gpu; 0 when the weights do not fit
  bool weights_exceed = false;        // the weights alone take more than usable
};
BudgetSplit split_budget(const GpuBudget& budget);

// Searches N in [1, ceiling] (a cache never shrinks as N grows) for the longest N whose cache under `layout` is at
// most `kv_budget` bytes. A layout that rounds N up to its granularity lands the answer on a whole block, page or
// cell pad. Without a per-token figure (no head count) the result is 0 tokens.
KvFit longest_kv_fit(const Model& model, KvLayout layout, KvDtype dtype, std::uint64_t kv_budget, std::int64_t ceiling,
                     KvSplit split = {});

}  // namespace ropelens
