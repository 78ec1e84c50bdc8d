#include "ropelens/report/inspect_report.hpp"

#include "ropelens/engines/kv_cache.hpp"

namespace ropelens {

InspectReport build_inspect_report(const LoadedModel& loaded, const InspectRequest& request) {
  InspectReport report;
  report.model = &loaded.model;
  report.schemes = build_scheme_report(loaded.model, request.target_tokens);
  report.gguf = loaded.gguf;
  if (request.target_tokens) report.kv_cache = kv_cache_at(loaded.model, {*request.target_tokens, request.kv_dtype});
  return report;
}

}  // namespace ropelens
