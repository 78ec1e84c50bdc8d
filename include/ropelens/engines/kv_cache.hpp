// The KV cache as each engine lays it out: memory's per-layer arithmetic with every registry row's layout.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "ropelens/engines/engine.hpp"
#include "ropelens/engines/registry.hpp"
#include "ropelens/memory/fit.hpp"
#include "ropelens/memory/kv_cache.hpp"

namespace ropelens {

// The window-aware cache and one view per engine, in registry order.
KvCacheReport kv_cache_at(const Model& model, const KvRequest& request);
// The longest N whose cache in `engine`'s layout fits the budget of one of `gpus` GPUs, split as the engine shards
// (memory/fit.hpp).
KvFit longest_kv_fit(const Model& model, Engine engine, KvDtype dtype, std::uint64_t kv_budget, std::int64_t ceiling,
                     int gpus = 1);

// What fit and CTX210 size one engine's deployment with: GPUs of one size, how many, and what is set aside.
struct BudgetRequest {
  std::uint64_t gpu_bytes = 0;                 // one GPU's memory (--memory)
  std::uint64_t reserve_bytes = 0;             // --reserve
  int gpus = 1;                                // --tp
  std::optional<std::uint64_t> weights_bytes;  // --weights, over what the model states
  std::optional<KvDtype> kv_dtype;             // --kv-dtype; none: the cache dtype the engine picks ("auto")
  const Deployment* deployment = nullptr;      // a pinned release can have another default share
  std::optional<double> share;                 // the share a launch line sets; none: the engine's default
};

// One engine's memory for a model, per GPU: its default share, the dtypes it runs the model and cache in, the
// weights as it holds them, and what is left for the KV cache. The one budget function fit and CTX210 share.
struct EngineBudget {
  Engine engine{};
  MemoryShare share;                           // fraction 1 and no formula for an engine without a share setting
  KvDtype model_dtype = KvDtype::bf16;         // the dtype it runs the config's dtype in
  KvDtype kv_dtype = KvDtype::bf16;            // the cache's
  CacheDtypeFlag cache_flag;                   // the flag value that gives it, or why the engine has no such cache
  std::optional<std::uint64_t> weights_bytes;  // the whole model as the engine holds it; none when unknown
  std::string weights_from;                    // how that figure was found
  bool weights_as_stated = true;               // the figure is the checkpoint's (or --weights) unchanged
  BudgetSplit split;                           // one GPU's usable memory, weights and KV budget
};
EngineBudget engine_budget(const Model& model, Engine engine, const BudgetRequest& request);
// The engine's KV cache for one sequence of `tokens` on one of `gpus` GPUs.
std::uint64_t engine_kv_bytes(const Model& model, Engine engine, KvDtype dtype, std::int64_t tokens, int gpus);

}  // namespace ropelens
