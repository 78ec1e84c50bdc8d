// `diff --format json`: every figure of the text output, keys sorted as nlohmann's dump(2) sorts them.
#include <nlohmann/json.hpp>

#include "render/check/check_renderers.hpp"
#include "render/writers/json_writer.hpp"
#include "ropelens/render/render.hpp"
#include "ropelens/report/table_report.hpp"
#include "ropelens/model/text.hpp"

namespace ropelens {
namespace {

using render_detail::JsonWriter;

template <class T> void optional_member(JsonWriter& w, std::string_view key, const std::optional<T>& value) {
  if (value) w.member(key, *value);
  else w.member(key, nlohmann::json());
}

void write_fields(JsonWriter& w, const std::vector<FieldChange>& fields) {
  w.begin_array();
  for (const auto& f : fields)
    w.begin_object()
        .member("field", f.field)
        .member("new", f.new_value)
        .member("new_from", f.new_from)
        .member("old", f.old_value)
        .member("old_from", f.old_from)
        .member("setup", f.setup)
        .end_object();
  w.end_array();
}

void write_setup(JsonWriter& w, const SetupChange& s) {
  w.begin_object();
  w.key("attention_factor").begin_object();
  optional_member(w, "new", s.new_attention_factor);
  optional_member(w, "old", s.old_attention_factor);
  w.end_object();
  w.key("changed_pairs").begin_object().member("count", static_cast<int>(s.changed_pairs.size()));
  if (s.largest)
    w.key("largest")
        .begin_object()
        .member("new_inv_freq", s.largest->new_inv_freq)
        .member("old_inv_freq", s.largest->old_inv_freq)
        .member("pair", s.largest->pair)
        .member("ratio", s.largest->ratio)
        .end_object();
  else w.member("largest", nlohmann::json());
  w.member("pairs", s.changed_pairs).member("range", index_ranges(s.changed_pairs)).end_object();
  w.member("name", s.setup).member("on_new", s.on_new).member("on_old", s.on_old);
  w.key("out_of_range_pairs")
      .begin_object()
      .member("new", s.new_out_of_range)
      .member("old", s.old_out_of_range)
      .end_object();
  w.member("pairs_compared", s.pairs_compared).end_object();
}

void write_engines(JsonWriter& w, const std::vector<EngineLengthChange>& engines) {
  w.begin_array();
  for (const auto& e : engines) {
    w.begin_object().member("changed", e.changed()).member("engine", to_string(engine_of(e.version)));
    w.member("label", label_of(e.version)).member("new_derivation", e.new_derivation);
    optional_member(w, "new_limit_tokens", e.new_limit_tokens);
    w.member("old_derivation", e.old_derivation);
    optional_member(w, "old_limit_tokens", e.old_limit_tokens);
    w.end_object();
  }
  w.end_array();
}

void write_diagnostics(JsonWriter& w, const std::vector<Diagnostic>& findings) {
  w.begin_array();
  for (const auto& d : findings) render_detail::write_diagnostic_json(w, d);
  w.end_array();
}

void write_model(JsonWriter& w, const ModelDiff& m) {
  w.begin_object();
  if (!m.error) write_engines(w.key("engines"), m.engines);
  if (m.error) w.member("error", *m.error);
  if (!m.error) {
    write_fields(w.key("fields"), m.fields);
    w.key("findings").begin_object();
    write_diagnostics(w.key("fixed"), m.findings.fixed);
    write_diagnostics(w.key("kept"), m.findings.kept);
    write_diagnostics(w.key("new"), m.findings.introduced);
    write_diagnostics(w.key("unchanged"), m.findings.unchanged);
    w.end_object();
  }
  w.member("new_path", m.new_path);
  if (!m.error) optional_member(w, "new_target", m.new_target_tokens);
  w.member("old_path", m.old_path);
  if (!m.error) optional_member(w, "old_target", m.old_target_tokens);
  w.member("path", m.path);
  if (!m.error) {
    w.key("setups").begin_array();
    for (const auto& s : m.setups) write_setup(w, s);
    w.end_array();
  }
  w.member("status", to_string(m.status)).end_object();
}

}  // namespace

void render_diff_json(const DiffReport& report, std::ostream& out) {
  std::string text;
  JsonWriter w(text);
  w.begin_object().key("models").begin_array();
  for (const auto& m : report.models) write_model(w, m);
  w.end_array().member("new", report.new_label).member("old", report.old_label).member("schema_version", 1);
  w.member("semantics", kSemantics);
  const DiffCounts& c = report.counts;
  w.key("summary")
      .begin_object()
      .member("fixed", c.fixed)
      .member("kept", c.kept)
      .member("models", c.models)
      .key("new")
      .begin_object()
      .member("errors", c.introduced_errors)
      .member("infos", c.introduced_infos)
      .member("warnings", c.introduced_warnings)
      .end_object()
      .member("skipped_files", c.skipped_files)
      .member("unchanged", c.unchanged)
      .member("unreadable_files", c.unreadable)
      .end_object();
  w.end_object();
  out << text << "\n";
}

}  // namespace ropelens
