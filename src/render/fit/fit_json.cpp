// fit as JSON (schema_version 1): integer bytes and tokens, per engine and dtype; memory, weights and budgets per GPU.
#include "render/writers/json_writer.hpp"
#include "ropelens/render/render.hpp"

namespace ropelens {
namespace {

using nlohmann::json;

json engine_fit_json(const EngineFit& fit) {
  if (fit.unsupported) return {{"unsupported", *fit.unsupported}};
  return {{"max_tokens", fit.max_tokens},
          {"limited_by", to_string(fit.limited_by)},
          {"granularity_tokens", fit.granularity},
          {"kv_cache_bytes", fit.kv_bytes},
          {"memory_share", fit.share.fraction},
          {"memory_share_from", fit.share.formula.empty() ? json(nullptr) : json(fit.share.formula)},
          {"usable_bytes", fit.usable_bytes},
          {"weights_bytes", fit.weights_bytes},
          {"weights_from", fit.weights_from},
          {"kv_budget_bytes", fit.kv_budget},
          {"serve", fit.serve_command.empty() ? json(nullptr) : json(fit.serve_command)}};
}

}  // namespace

json fit_json(const FitReport& report) {
  json engines = json::object();
  for (const EngineFit& fit : report.fits)
    engines[std::string(to_string(fit.engine))][std::string(to_string(fit.dtype))] = engine_fit_json(fit);
  return {{"schema_version", 1},
          {"source", report.source},
          {"memory_bytes", report.memory_bytes},
          {"gpus", report.gpus},
          {"reserve_bytes", report.reserve.bytes},
          {"reserve", report.reserve.as_given.empty() ? json(nullptr) : json(report.reserve.as_given)},
          {"weights_bytes", report.weights.value},
          {"weights_from", report.weights.from.describe()},
          {"declared_tokens", report.declared.value},
          {"rope_tokens", report.rope_tokens ? json(*report.rope_tokens) : json(nullptr)},
          {"engines", std::move(engines)},
          {"not_counted", report.not_counted}};
}

void render_fit_json(const FitReport& report, std::ostream& out) {
  out << render_detail::pretty_json(fit_json(report)) << '\n';
}

}  // namespace ropelens
