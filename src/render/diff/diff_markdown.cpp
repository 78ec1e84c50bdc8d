// `diff --format markdown`: a pull-request comment. Tables for what changed, a list for the findings.
#include <fmt/format.h>

#include "render/diff/diff_format.hpp"
#include "ropelens/render/render.hpp"
#include "ropelens/model/text.hpp"

namespace ropelens {
namespace {

using namespace render_detail;

// Text inside a table markdown_cell or inline code: pipes and newlines would break the table, control characters the
// terminal showing a CI log (newlines become \u000a).
std::string markdown_cell(const std::string& text) {
  std::string out;
  for (char c : terminal_safe(text)) {
    if (c == '|') out += "\\|";
    else out += c;
  }
  return out;
}

std::string code(const std::string& text) { return "`" + markdown_cell(text) + "`"; }

void fields_table(const ModelDiff& m, std::string& out) {
  if (m.fields.empty()) return;
  out += "| field | before | after |\n|---|---|---|\n";
  for (const auto& f : m.fields)
    out += fmt::format("| {} | {} | {} |\n", code(field_name(f)), markdown_cell(value_text(f.old_value)),
                       markdown_cell(value_text(f.new_value)));
  out += "\n";
}

void setups_table(const ModelDiff& m, std::string& out) {
  if (m.setups.empty()) return;
  out +=
      "| RoPE setup | pairs whose θ changed | largest change | attention factor | out of range at the target |\n"
      "|---|---|---|---|---|\n";
  for (const auto& s : m.setups)
    out +=
        fmt::format("| {} | {} | {} | {} | {} → {} |\n", code(s.setup),
                    s.on_old && s.on_new ? changed_pairs_text(s) : (s.on_old ? "removed" : "new"),
                    markdown_cell(largest_change_text(s)), before_after(s.old_attention_factor, s.new_attention_factor),
                    pairs_text(s.old_out_of_range), pairs_text(s.new_out_of_range));
  out += "\n";
}

void engines_table(const ModelDiff& m, std::string& out) {
  out += "| engine | length limit before | after |\n|---|---|---|\n";
  for (const auto& e : m.engines) {
    auto text = [](const std::optional<std::int64_t>& v) { return v ? fmt::format("{}", *v) : std::string("none"); };
    out += fmt::format("| {} | {} | {}{} |\n", markdown_cell(std::string(label_of(e.version))),
                       text(e.old_limit_tokens), text(e.new_limit_tokens), e.changed() ? " (changed)" : "");
  }
  out += "\n";
}

void findings_list(const char* heading, const std::vector<Diagnostic>& findings, std::string& out) {
  if (findings.empty()) return;
  out += fmt::format("**{}**\n\n", heading);
  for (const auto& d : findings) {
    const std::string where = d.where.line ? fmt::format(" (line {})", *d.where.line) : "";
    out += fmt::format("- **{}** {} `{}` at {}{}: {}\n", d.code, to_string(d.severity), d.name,
                       code(d.where.pointer.empty() ? "(document)" : d.where.pointer), where, markdown_cell(d.message));
  }
  out += "\n";
}

std::string model_markdown(const ModelDiff& m) {
  if (m.error)
    return fmt::format("#### {} ({})\n\nCould not be read: {}\n\n", code(m.path), to_string(m.status),
                       markdown_cell(*m.error));
  std::string out = fmt::format("#### {} ({})\n\n", code(m.path), to_string(m.status));
  out += fmt::format("Target: {} tokens. Findings: {} new, {} fixed, {} unchanged.\n\n",
                     before_after_tokens(m.old_target_tokens, m.new_target_tokens), m.findings.introduced.size(),
                     m.findings.fixed.size(), m.findings.unchanged.size());
  fields_table(m, out);
  setups_table(m, out);
  engines_table(m, out);
  findings_list("New findings", m.findings.introduced, out);
  findings_list("Fixed", m.findings.fixed, out);
  findings_list("Kept (max_position_embeddings raised with RoPE unchanged: not fixed)", m.findings.kept, out);
  return out;
}

}  // namespace

void render_diff_markdown(const DiffReport& report, std::ostream& out) {
  std::string block =
      fmt::format("### ropelens diff: {} → {}\n\n", code(report.old_label), markdown_cell(report.new_label));
  block += diff_summary_text(report.counts) + ".\n\n";
  for (const auto& m : report.models) block += model_markdown(m);
  out << terminal_safe_lines(block);  // read on a terminal too (a CI log), not only on GitHub
}

}  // namespace ropelens
