// The KV-cache report and the fit search with the registry's layouts.
#include "ropelens/engines/kv_cache.hpp"

#include "ropelens/engines/registry.hpp"

namespace ropelens {

KvCacheReport kv_cache_at(const Model& model, const KvRequest& request) {
  static const std::vector<EngineKvLayout> layouts = [] {
    std::vector<EngineKvLayout> out;
    for (const EngineRow* row : engine_registry()) out.push_back({row->name, row->kv_layout});
    return out;
  }();
  return kv_cache_report(model, request, layouts);
}

KvFit longest_kv_fit(const Model& model, Engine engine, KvDtype dtype, std::uint64_t kv_budget, std::int64_t ceiling) {
  return longest_kv_fit(model, engine_row(engine).kv_layout, dtype, kv_budget, ceiling);
}

}  // namespace ropelens
