#include <nlohmann/json.hpp>

#include "render/check/check_renderers.hpp"
#include "render/writers/json_writer.hpp"
#include "ropelens/engines/engine_report.hpp"
#include "ropelens/render/render.hpp"

namespace ropelens {
namespace {

using nlohmann::json;
using render_detail::JsonWriter;

void write_location_members(JsonWriter& w, const Location& where) {
  if (where.column) w.member("column", *where.column);
  if (where.line) w.member("line", *where.line);
}

}  // namespace

void render_detail::write_diagnostic_json(JsonWriter& w, const Diagnostic& d) {
  w.begin_object();
  if (d.where.byte_offset) w.member("byte_offset", static_cast<std::int64_t>(*d.where.byte_offset));
  w.member("code", d.code);
  if (d.where.column) w.member("column", *d.where.column);
  w.member("facts", d.facts);
  if (!d.where.flag.empty()) w.member("flag", d.where.flag);
  w.member("help", d.help);
  if (!d.help_command.empty()) w.member("help_command", d.help_command);
  if (d.where.line) w.member("line", *d.where.line);
  w.member("message", d.message).member("name", d.name).member("pointer", d.where.pointer);
  w.key("related").begin_array();
  for (const auto& r : d.related) {
    w.begin_object();
    write_location_members(w, r);
    w.member("pointer", r.pointer).end_object();
  }
  w.end_array().member("severity", to_string(d.severity)).end_object();
}

namespace {

void write_out_of_range(JsonWriter& w, const SetupAudit& a) {
  w.begin_array();
  for (int p : a.out_of_range_pairs) {
    const PairAudit& pa = a.pairs[static_cast<std::size_t>(p)];
    w.begin_object()
        .member("needed_deg", pa.needed_deg)
        .member("pair", p)
        .member("seen_deg", pa.seen_deg)
        .member("unseen_deg", pa.unseen_arc_deg)
        .end_object();
  }
  w.end_array();
}

void write_audit(JsonWriter& w, const FileResult& file) {
  w.begin_object();
  auto nope = file.model.nope_layers();
  if (!nope.empty()) w.member("nope_layers", nope);
  w.key("setups").begin_array();
  for (const auto& a : file.audit.setups) {
    const RopeSetup& s = file.model.setups[static_cast<std::size_t>(a.setup)];
    w.begin_object()
        .member("attended_tokens", a.attended_tokens)
        .member("attention", to_string(s.attention))
        .member("extension_tokens", a.extension_tokens)
        .member("layers", s.layers);
    if (a.missing) w.member("missing", *a.missing);
    w.member("name", s.name);
    write_out_of_range(w.key("out_of_range"), a);
    w.member("out_of_range_pairs", a.out_of_range_pairs);
    if (!a.pretrain_from.pointer.empty()) w.member("pretrain_from", a.pretrain_from.pointer);
    w.member("pretrain_tokens", a.pretrain_tokens).member("rope_type", to_string(s.type)).end_object();
  }
  w.end_array();
  // Where the training phases (pretrain_tokens, extension_tokens) were read from.
  w.key("training_history")
      .begin_object()
      .member("before_edits", file.audit.history_from_unedited)
      .member("source", file.path)
      .end_object();
  w.end_object();
}

void write_baseline_entries(JsonWriter& w, const std::vector<BaselineEntry>& entries) {
  w.begin_array();
  for (const auto& e : entries) w.value(to_json(e));
  w.end_array();
}

// One element of "files", with the keys in the order nlohmann's dump(2) sorts them.
void write_file_json(JsonWriter& w, const FileResult& file) {
  w.begin_object();
  if (file.error) {
    w.member("error", *file.error).member("path", file.path).end_object();
    return;
  }
  write_audit(w.key("audit"), file);
  if (file.baseline) {
    w.key("baseline").begin_object();
    write_baseline_entries(w.key("fixed"), file.baseline->fixed);
    w.member("suppressed", file.baseline->suppressed).end_object();
  }
  w.key("diagnostics").begin_array();
  for (const auto& d : file.diagnostics) render_detail::write_diagnostic_json(w, d);
  w.end_array();
  if (file.engines) w.member("engines", engines_to_json(file.model, *file.engines));
  w.member("model_type", file.model.model_type.value)
      .member("path", file.path)
      .member("target", file.audit.target_tokens)
      .end_object();
}

// Streams exactly what nlohmann's dump(2) prints for the whole document (keys sorted: files, schema_version,
// semantics, summary), without holding every file in memory.
class JsonCheckRenderer : public CheckRenderer {
  static constexpr std::size_t kTypicalFileBytes = 8192;  // a published config's entry is 2 to 7 KiB

 public:
  explicit JsonCheckRenderer(std::ostream& out) : out_(out) {}
  void begin() override { out_ << "{\n  \"files\": ["; }
  std::string render_file(const FileResult& file) const override {
    std::string part;
    part.reserve(kTypicalFileBytes);
    JsonWriter writer(part, 4);
    write_file_json(writer, file);
    return part;
  }
  void write_file(const std::string& part) override {
    out_ << (first_ ? "\n    " : ",\n    ") << part;
    first_ = false;
  }
  void end(const CheckCounts& c) override {
    out_ << (first_ ? "]" : "\n  ]") << ",\n  \"schema_version\": 1,\n  \"semantics\": " << json(kSemantics).dump()
         << ",\n  \"summary\": ";
    std::string summary;
    JsonWriter w(summary, 2);
    w.begin_object();
    if (c.baseline_used) {
      w.key("baseline").begin_object();
      write_baseline_entries(w.key("fixed"), c.baseline_fixed);
      w.member("suppressed", c.baseline_suppressed).end_object();
    }
    w.member("errors", c.errors).member("files", c.files).member("infos", c.infos);
    if (c.skipped_files > 0) w.member("skipped_files", c.skipped_files);
    w.member("unreadable_files", c.unreadable_files).member("warnings", c.warnings).end_object();
    out_ << summary << "\n}\n";
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
