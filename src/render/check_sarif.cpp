// SARIF 2.1.0, with rule metadata from the catalog.
#include <map>

#include <nlohmann/json.hpp>

#include "check_renderers.hpp"
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

json tool_json() {
  json rules = json::array();
  for (const Rule* rule : rule_registry()) rules.push_back(rule_metadata(*rule));
  return {{"driver",
           {{"name", "ropelens"},
            {"version", ROPELENS_VERSION},
            {"informationUri", "https://github.com/ropelens/ropelens"},
            {"rules", rules}}}};
}

// Streams what nlohmann's dump(2) prints for the whole log (keys sorted: $schema, runs, version; in the run,
// results before tool).
class SarifCheckRenderer : public CheckRenderer {
 public:
  explicit SarifCheckRenderer(std::ostream& out) : out_(out) {
    for (const Rule* rule : rule_registry()) index_of_[std::string(rule->meta.code)] = static_cast<int>(index_of_.size());
  }
  void begin() override {
    out_ << "{\n  \"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\",\n  \"runs\": [\n    {\n      "
            "\"results\": [";
  }
  // The file's results, each indented and separated as inside the results array.
  std::string render_file(const FileResult& file) const override {
    std::string part;
    for (const auto& d : file.diagnostics) {
      auto it = index_of_.find(d.code);
      json result = result_json(file, d, it == index_of_.end() ? -1 : it->second);
      if (!part.empty()) part += ",\n        ";
      part += render_detail::indent_json(result.dump(2), 8);
    }
    return part;
  }
  void write_file(const std::string& part) override {
    if (part.empty()) return;
    out_ << (first_ ? "\n        " : ",\n        ") << part;
    first_ = false;
  }
  void end(const CheckCounts&) override {
    out_ << (first_ ? "]" : "\n      ]") << ",\n      \"tool\": " << render_detail::indent_json(tool_json().dump(2), 6)
         << "\n    }\n  ],\n  \"version\": \"2.1.0\"\n}\n";
  }

 private:
  std::ostream& out_;
  std::map<std::string, int> index_of_;
  bool first_ = true;
};

}  // namespace

namespace render_detail {
std::unique_ptr<CheckRenderer> make_sarif_check_renderer(std::ostream& out) {
  return std::make_unique<SarifCheckRenderer>(out);
}
}  // namespace render_detail

}  // namespace ropelens
