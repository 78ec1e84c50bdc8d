#include <nlohmann/json.hpp>

#include "check_renderers.hpp"
#include "ropelens/engines.hpp"
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

json file_json(const FileResult& file) {
  if (file.error) return {{"path", file.path}, {"error", *file.error}};
  json diagnostics = json::array();
  for (const auto& d : file.diagnostics) diagnostics.push_back(diagnostic_json(d));
  json out = {{"path", file.path},
              {"model_type", file.model.model_type.value},
              {"target", file.target_tokens},
              {"diagnostics", diagnostics},
              {"audit", audit_json(file)}};
  if (file.engines) out["engines"] = engines_to_json(file.model, *file.engines);
  return out;
}

// Streams exactly what nlohmann's dump(2) prints for the whole document (keys sorted: files, schema_version,
// semantics, summary), without holding every file in memory.
class JsonCheckRenderer : public CheckRenderer {
 public:
  explicit JsonCheckRenderer(std::ostream& out) : out_(out) {}
  void begin() override { out_ << "{\n  \"files\": ["; }
  void file(const FileResult& file) override {
    out_ << (first_ ? "\n    " : ",\n    ") << render_detail::indent_json(file_json(file).dump(2), 4);
    first_ = false;
  }
  void end(const CheckCounts& c) override {
    out_ << (first_ ? "]" : "\n  ]") << ",\n  \"schema_version\": 1,\n  \"semantics\": " << json(kSemantics).dump()
         << ",\n  \"summary\": ";
    json summary = {{"files", c.files},
                    {"errors", c.errors},
                    {"warnings", c.warnings},
                    {"infos", c.infos},
                    {"unreadable_files", c.unreadable_files}};
    out_ << render_detail::indent_json(summary.dump(2), 2) << "\n}\n";
  }

 private:
  std::ostream& out_;
  bool first_ = true;
};

}  // namespace

namespace render_detail {
std::unique_ptr<CheckRenderer> make_json_check_renderer(std::ostream& out) {
  return std::make_unique<JsonCheckRenderer>(out);
}
}  // namespace render_detail

}  // namespace ropelens
