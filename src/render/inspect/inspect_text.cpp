#include <sstream>

#include <fmt/format.h>

#include "render/writers/format.hpp"
#include "render/writers/terminal_text.hpp"
#include "render/inspect/model_settings.hpp"
#include "ropelens/render/render.hpp"
#include "ropelens/model/text.hpp"

namespace ropelens {
namespace {

void line(std::ostream& out, std::string_view indent, std::string_view name, const std::string& value,
          const Provenance& from) {
  out << fmt::format("{}{:<34} {:<22} {}\n", indent, name, value, from.describe());
}

void render_inspected_setup(const RopeSetup& s, std::ostream& out) {
  out << fmt::format("\nsetup {}: layers {} ({} layers), {} attention", s.name, index_ranges(s.layers), s.layers.size(),
                     to_string(s.attention));
  if (s.window_tokens) out << fmt::format(" within {} tokens", s.window_tokens->value);
  out << "\n";
  for (const auto& row : render_detail::setup_settings(s)) line(out, "  ", row.name, row.value, row.from);
}

void render_reference(const ModelReference& r, std::ostream& out) {
  out << fmt::format("{:<34} {} @ {} -> {}\n", "model id", r.id, r.revision, r.resolved);
  out << fmt::format("{:<34} {}\n", "file", r.path);
}

void render_attention_layers(const Model& model, std::ostream& out) {
  if (!model.hybrid_schedule_from) return;
  const auto attending = model.attention_layers();
  line(out, "", "attention layers",
       fmt::format("{} of {}: {}", attending.size(), model.layers.size(), index_ranges(attending)),
       *model.hybrid_schedule_from);
}

}  // namespace

namespace {

void write_inspect_text(const InspectReport& report, const TextOptions& options, std::ostream& out) {
  const Model& model = *report.model;
  const SchemeReport& schemes = report.schemes;
  const std::vector<Diagnostic>& problems = report.problems;
  out << fmt::format("{}\n", terminal_safe(model.source));
  if (model.reference) render_reference(*model.reference, out);
  for (const auto& row : render_detail::model_settings(model)) line(out, "", row.name, row.value, row.from);
  if (!model.layers.empty()) out << fmt::format("{:<34} {}\n", "schedule", model.schedule_summary());
  render_attention_layers(model, out);
  auto nope = model.nope_layers();
  if (!nope.empty()) out << fmt::format("{:<34} {}\n", "NoPE layers", index_ranges(nope));
  for (const auto& setup : model.setups) render_inspected_setup(setup, out);
  render_scheme_text(schemes, out);
  if (report.gguf) render_gguf_metadata_text(*report.gguf, out);
  if (report.kv_cache) render_kv_cache_text(*report.kv_cache, out, options);
  if (!model.notes.empty()) {
    out << "\nnotes\n";
    for (const auto& note : model.notes) out << "  - " << terminal_safe(note) << "\n";
  }
  out << fmt::format("\nproblems: {}\n", problems.size());
  for (const auto& p : problems)
    out << fmt::format("  {} {}: {}\n", p.code, p.where.pointer.empty() ? "(document)" : terminal_safe(p.where.pointer),
                       terminal_safe(p.message));
}

}  // namespace

// Every value from the file is escaped where it is written; the whole block once more, so a value added later
// cannot reach the terminal raw either.
// On a terminal, every line that is wider than it wraps at spaces (fit_lines).
void render_inspect_text(const InspectReport& report, std::ostream& out, const TextOptions& options) {
  std::ostringstream block;
  write_inspect_text(report, options, block);
  out << render_detail::fit_lines(terminal_safe_lines(block.str()), options.width);
}

}  // namespace ropelens
