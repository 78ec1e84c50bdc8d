// `diff` as text: per changed model, what changed and what the change introduced and fixed; then a summary.
#include <fmt/format.h>

#include "render/check/check_renderers.hpp"
#include "render/diff/diff_format.hpp"
#include "ropelens/render/render.hpp"
#include "ropelens/model/text.hpp"
#include "render/writers/terminal_text.hpp"

namespace ropelens {
namespace {

using namespace render_detail;

void append_fields(const ModelDiff& model, std::string& out) {
  if (model.fields.empty()) return;
  out += "  changed fields:\n";
  for (const auto& f : model.fields)
    out += fmt::format("    {}: {} → {}  ({} → {})\n", field_name(f), value_text(f.old_value), value_text(f.new_value),
                       f.old_from.empty() ? "—" : f.old_from, f.new_from.empty() ? "—" : f.new_from);
}

void append_setups(const ModelDiff& model, std::string& out) {
  for (const auto& s : model.setups) {
    out += fmt::format("  RoPE setup {}{}:\n", s.setup, !s.on_old ? " (new)" : !s.on_new ? " (removed)" : "");
    if (s.on_old && s.on_new) {
      out += fmt::format("    pairs whose θ changed: {}\n", changed_pairs_text(s));
      if (s.largest) out += fmt::format("    largest change: {}\n", largest_change_text(s));
    }
    out += fmt::format("    attention factor: {}\n", before_after(s.old_attention_factor, s.new_attention_factor));
    out += fmt::format("    out of range at the target: {} → {}\n", pairs_text(s.old_out_of_range),
                       pairs_text(s.new_out_of_range));
  }
}

void append_engines(const ModelDiff& model, std::string& out) {
  out += "  engine length limits:\n";
  for (const auto& e : model.engines)
    out += fmt::format("    {}: {}{}\n", label_of(e.version),
                       before_after_tokens(e.old_limit_tokens, e.new_limit_tokens, "none"),
                       e.changed() ? "" : " (unchanged)");
}

void append_findings(const char* heading, const std::string& path, const std::vector<Diagnostic>& findings,
                     std::string& out) {
  if (findings.empty()) return;
  out += fmt::format("  {}:\n", heading);
  std::string block;
  for (const auto& d : findings) append_finding_text(path, d, block);
  std::size_t start = 0;
  for (std::size_t end = block.find('\n'); end != std::string::npos; start = end + 1, end = block.find('\n', start))
    out.append("    ").append(block, start, end + 1 - start);
}

std::string model_text(const ModelDiff& m) {
  std::string out;
  if (m.error)
    return fmt::format("{}: {}; could not be read: {}\n\n", terminal_safe(m.path), to_string(m.status),
                       terminal_safe(*m.error));
  out += fmt::format("{}: {} ({} → {})\n", terminal_safe(m.path), to_string(m.status),
                     m.old_path.empty() ? "—" : terminal_safe(m.old_path),
                     m.new_path.empty() ? "—" : terminal_safe(m.new_path));
  out += fmt::format("  target: {} tokens\n", before_after_tokens(m.old_target_tokens, m.new_target_tokens));
  append_fields(m, out);
  append_setups(m, out);
  append_engines(m, out);
  out += fmt::format(
      "  findings: {} new, {} fixed, {}{} unchanged\n", m.findings.introduced.size(), m.findings.fixed.size(),
      m.findings.kept.empty() ? "" : fmt::format("{} kept, ", m.findings.kept.size()), m.findings.unchanged.size());
  append_findings("new", m.path, m.findings.introduced, out);
  append_findings("fixed", m.old_path, m.findings.fixed, out);
  append_findings("kept (max_position_embeddings raised with RoPE unchanged: not fixed)", m.old_path, m.findings.kept,
                  out);
  return out + "\n";
}

}  // namespace

// On a terminal, every line wider than it wraps at spaces (fit_lines); piped, the fixed layout.
void render_diff_text(const DiffReport& report, std::ostream& out, const TextOptions& options) {
  std::string block =
      fmt::format("ropelens diff: {} → {}\n\n", terminal_safe(report.old_label), terminal_safe(report.new_label));
  for (const auto& model : report.models) block += model_text(model);
  block += diff_summary_text(report.counts) + "\n";
  out << fit_lines(terminal_safe_lines(block), options.width);  // field values (value_text) and anything added later
}

}  // namespace ropelens
