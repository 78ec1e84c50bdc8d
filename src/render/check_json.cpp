#include <nlohmann/json.hpp>

#include "ropelens/render.hpp"

namespace ropelens {
namespace {

using nlohmann::json;

json location_json(const Location& where) {
  json out = {{"pointer", where.pointer}};
  if (where.line) out["line"] = *where.line;
  if (where.column) out["column"] = *where.column;
  return out;
}

json diagnostic_json(const Diagnostic& d) {
  json related = json::array();
  for (const auto& r : d.related) related.push_back(location_json(r));
  json out = {{"code", d.code},     {"name", d.name},       {"severity", to_string(d.severity)},
              {"message", d.message}, {"pointer", d.where.pointer}, {"help", d.help},
              {"related", related},   {"facts", d.facts}};
  if (d.where.line) out["line"] = *d.where.line;
  if (d.where.column) out["column"] = *d.where.column;
  return out;
}

json audit_json(const FileResult& file) {
  json setups = json::array();
  for (const auto& a : file.audit.setups) {
    const RopeSetup& s = file.model.setups[static_cast<std::size_t>(a.setup)];
    json pairs = json::array();
    for (int p : a.out_of_range_pairs) {
      const PairAudit& pa = a.pairs[static_cast<std::size_t>(p)];
      pairs.push_back({{"pair", p}, {"seen_deg", pa.seen_deg}, {"needed_deg", pa.needed_deg}, {"unseen_deg", pa.unseen_arc_deg}});
    }
    setups.push_back({{"name", s.name},
                      {"layers", s.layers},
                      {"attention", to_string(s.attention)},
                      {"rope_type", to_string(s.type)},
                      {"pretrain_tokens", a.pretrain_tokens},
                      {"extension_tokens", a.extension_tokens},
                      {"attended_tokens", a.attended_tokens},
                      {"out_of_range_pairs", a.out_of_range_pairs},
                      {"out_of_range", pairs}});
  }
  json out = {{"setups", setups}};
  auto nope = file.model.nope_layers();
  if (!nope.empty()) out["nope_layers"] = nope;
  return out;
}

}  // namespace

void render_check_json(const CheckReport& report, std::ostream& out) {
  json files = json::array();
  for (const auto& file : report.files) {
    if (file.error) {
      files.push_back({{"path", file.path}, {"error", *file.error}});
      continue;
    }
    json diagnostics = json::array();
    for (const auto& d : file.diagnostics) diagnostics.push_back(diagnostic_json(d));
    files.push_back({{"path", file.path},
                     {"model_type", file.model.model_type.value},
                     {"target", file.target_tokens},
                     {"diagnostics", diagnostics},
                     {"audit", audit_json(file)}});
  }
  json doc = {{"schema_version", 1},
              {"semantics", kSemantics},
              {"summary",
               {{"files", report.files.size()},
                {"errors", report.errors},
                {"warnings", report.warnings},
                {"infos", report.infos},
                {"unreadable_files", report.unreadable_files}}},
              {"files", files}};
  out << doc.dump(2) << '\n';
}

}  // namespace ropelens
