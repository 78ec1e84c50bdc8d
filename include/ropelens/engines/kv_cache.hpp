// The KV cache as each engine lays it out: memory's per-layer arithmetic with every registry row's layout.
#pragma once

#include <cstdint>

#include "ropelens/engines/engine.hpp"
#include "ropelens/memory/fit.hpp"
#include "ropelens/memory/kv_cache.hpp"

namespace ropelens {

// The window-aware cache and one view per engine, in registry order.
KvCacheReport kv_cache_at(const Model& model, const KvRequest& request);
// The longest N whose cache in `engine`'s layout fits the budget (memory/fit.hpp).
KvFit longest_kv_fit(const Model& model, Engine engine, KvDtype dtype, std::uint64_t kv_budget, std::int64_t ceiling);

}  // namespace ropelens
