// SARIF 2.1.0, with rule metadata from the catalog.
#include <map>

#include <nlohmann/json.hpp>

#include "ropelens/render.hpp"
#include "ropelens/rule_docs.hpp"

namespace ropelens {
namespace {

using nlohmann::json;

std::string sarif_level(Severity severity) {
  switch (severity) {
    case Severity::error: return "error";
    case Severity::warning: return "warning";
    case Severity::info: return "note";
  }
  return "note";
}

json rule_metadata(const Rule& rule) {
  return {{"id", rule.meta.code},
          {"name", rule.meta.name},
          {"shortDescription", {{"text", rule.meta.summary}}},
          {"help", {{"text", rule_doc(rule.meta.code)}, {"markdown", rule_doc(rule.meta.code)}}},
          {"defaultConfiguration", {{"level", sarif_level(rule.meta.default_severity)}}}};
}

json result_json(const FileResult& file, const Diagnostic& d, int rule_index) {
  json region = json::object();
  if (d.where.line) region["startLine"] = *d.where.line;
  if (d.where.column) region["startColumn"] = *d.where.column;
  json physical = {{"artifactLocation", {{"uri", file.path}}}};
  if (!region.empty()) physical["region"] = region;
  std::string text = d.message;
  if (!d.help.empty()) text += "\nhelp: " + d.help;
  json out = {{"ruleId", d.code},
              {"level", sarif_level(d.severity)},
              {"message", {{"text", text}}},
              {"locations",
               {{{"physicalLocation", physical},
                 {"logicalLocations", {{{"fullyQualifiedName", d.where.pointer}, {"kind", "member"}}}}}}},
              {"properties", d.facts}};
  if (rule_index >= 0) out["ruleIndex"] = rule_index;
  return out;
}

}  // namespace

void render_check_sarif(const CheckReport& report, std::ostream& out) {
  json rules = json::array();
  std::map<std::string, int> index_of;
  for (const Rule* rule : rule_registry()) {
    index_of[std::string(rule->meta.code)] = static_cast<int>(rules.size());
    rules.push_back(rule_metadata(*rule));
  }
  json results = json::array();
  for (const auto& file : report.files)
    for (const auto& d : file.diagnostics) {
      auto it = index_of.find(d.code);
      results.push_back(result_json(file, d, it == index_of.end() ? -1 : it->second));
    }
  json doc = {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
              {"version", "2.1.0"},
              {"runs",
               {{{"tool",
                  {{"driver",
                    {{"name", "ropelens"},
                     {"version", ROPELENS_VERSION},
                     {"informationUri", "https://github.com/ropelens/ropelens"},
                     {"rules", rules}}}}},
                 {"results", results}}}}};
  out << doc.dump(2) << '\n';
}

}  // namespace ropelens
