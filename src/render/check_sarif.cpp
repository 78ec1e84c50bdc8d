// SARIF 2.1.0, with rule metadata from the catalog.
#include <map>

#include <nlohmann/json.hpp>

#include "check_renderers.hpp"
#include "json_writer.hpp"
#include "ropelens/render.hpp"
#include "ropelens/rule.hpp"
#include "ropelens/rule_docs.hpp"

namespace ropelens {
namespace {

using nlohmann::json;
using render_detail::JsonWriter;

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

// One SARIF result, keys in the order nlohmann's dump(2) sorts them.
void write_result(JsonWriter& w, const FileResult& file, const Diagnostic& d, int rule_index) {
  std::string text = d.message;
  if (!d.help.empty()) text += "\nhelp: " + d.help;
  w.begin_object().member("level", sarif_level(d.severity));
  w.key("locations").begin_array().begin_object();
  w.key("logicalLocations").begin_array().begin_object();
  w.member("fullyQualifiedName", d.where.pointer).member("kind", "member").end_object().end_array();
  w.key("physicalLocation").begin_object();
  w.key("artifactLocation").begin_object().member("uri", file.path).end_object();
  if (d.where.line || d.where.column) {
    w.key("region").begin_object();
    if (d.where.column) w.member("startColumn", *d.where.column);
    if (d.where.line) w.member("startLine", *d.where.line);
    w.end_object();
  }
  w.end_object().end_object().end_array();
  w.key("message").begin_object().member("text", text).end_object();
  w.member("properties", d.facts).member("ruleId", d.code);
  if (rule_index >= 0) w.member("ruleIndex", rule_index);
  w.end_object();
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
      if (!part.empty()) part += ",\n        ";
      JsonWriter writer(part, 8);
      write_result(writer, file, d, it == index_of_.end() ? -1 : it->second);
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
