// ruff-like text: per file, one block per finding and the audit table of out-of-range pairs; then a summary.
#include <algorithm>
#include <cstdint>
#include <sstream>
#include <vector>

#include <fmt/format.h>

#include "render/check/check_renderers.hpp"
#include "render/writers/sarif_common.hpp"
#include "render/writers/format.hpp"
#include "ropelens/engines/engine_report.hpp"
#include "ropelens/render/render.hpp"
#include "render/writers/terminal_text.hpp"
#include "ropelens/render/command_text.hpp"

namespace ropelens {
namespace {

std::string position(const std::string& path, const Diagnostic& d) {
  if (d.where.line) return fmt::format("{}:{}:{}", terminal_safe(path), *d.where.line, d.where.column.value_or(1));
  return terminal_safe(path);
}

std::string pointer_text(const std::string& pointer) { return pointer.empty() ? "(document)" : terminal_safe(pointer); }

fmt::text_style severity_style(Severity severity) {
  using namespace render_detail;
  return severity == Severity::error ? error_style() : severity == Severity::warning ? warning_style() : info_style();
}

// On a terminal the message and help wrap to its width; the path and code stay on the first line.
std::string fitted(const std::string& line, std::size_t unbreakable_prefix, int indent, const TextOptions& options) {
  return options.width ? render_detail::wrapped(line, *options.width, indent, unbreakable_prefix) : line;
}

}  // namespace

void render_detail::append_finding_text(const std::string& path, const Diagnostic& d, std::string& out,
                                        const TextOptions& options) {
  using render_detail::styled;
  auto to = std::back_inserter(out);
  // The position and code stay together; the severity and [rule-name] wrap as words, never inside one.
  const std::string where = fmt::format("{}: {}", styled(position(path, d), fmt::emphasis::bold, options.color),
                                        styled(d.code, fmt::emphasis::bold, options.color));
  const std::string head =
      fmt::format("{} {} [{}]", where, styled(to_string(d.severity), severity_style(d.severity), options.color),
                  terminal_safe(d.name));
  fmt::format_to(to, "{}\n", fitted(head + " " + terminal_safe(d.message), where.size(), 4, options));
  const bool at_flag = d.where.pointer.empty() && !d.where.flag.empty();
  fmt::format_to(to, "  at {}{}\n", at_flag ? "flag " + terminal_safe(d.where.flag) : pointer_text(d.where.pointer),
                 d.where.byte_offset ? fmt::format(" (byte {})", *d.where.byte_offset) : "");
  for (const auto& r : d.related) fmt::format_to(to, "  see {}\n", pointer_text(r.pointer));
  if (!d.help.empty()) fmt::format_to(to, "{}\n", fitted("  help: " + terminal_safe(d.help), 0, 8, options));
  if (!d.help_command.empty()) out += command_text(terminal_safe(d.help_command), {options.width, 8, 2});
}

namespace {

// The audit could not run: one line saying what it lacks, rather than figures from a made-up value.
bool render_missing_audit(const FileResult& file, const TextOptions& options, std::string& out) {
  for (const auto& a : file.audit.setups)
    if (a.missing) {
      fmt::format_to(std::back_inserter(out), "{}\n",
                     render_detail::styled(fmt::format("audit of {} not computed: {}", file.path, *a.missing),
                                           render_detail::heading_style(), options.color));
      return true;
    }
  return false;
}

// The trained length came from a length key that states less than max_position_embeddings (Qwen-1's seq_length).
// Where the trained length comes from, when it is not the config's declared length (each sentence once).
void render_trained_lengths(const FileResult& file, std::string& out) {
  std::vector<std::string> printed;
  for (const auto& a : file.audit.setups) {
    if (!a.trained_length_noted || std::find(printed.begin(), printed.end(), a.trained_sentence) != printed.end())
      continue;
    printed.push_back(a.trained_sentence);
    fmt::format_to(std::back_inserter(out), "  {}\n", terminal_safe(a.trained_sentence));
  }
}

// One row of the audit table, each cell as printed.
struct AuditRow {
  std::string setup, layers;
  std::int64_t trained = 0, attended = 0;
  std::string pairs, worst;
};

std::vector<AuditRow> audit_rows(const FileResult& file) {
  std::vector<AuditRow> rows;
  for (const auto& a : file.audit.setups) {
    if (a.out_of_range_pairs.empty()) continue;
    const RopeSetup& s = file.model.setups[static_cast<std::size_t>(a.setup)];
    const PairAudit& worst = a.pairs[static_cast<std::size_t>(*a.worst_pair)];
    rows.push_back({terminal_safe(s.name), index_ranges(s.layers),
                    a.extension_tokens > 0 ? a.extension_tokens : a.pretrain_tokens, a.attended_tokens,
                    fmt::format("{} ({})", index_ranges(a.out_of_range_pairs), a.out_of_range_pairs.size()),
                    fmt::format("pair {}: {} → {}", worst.pair, render_detail::fixed(worst.seen_deg, 4),
                                render_detail::fixed(worst.needed_deg, 4))});
  }
  return rows;
}

struct AuditColumns {
  int setup = 20, layers = 12, pairs = 22;
};

// At least fixed widths, so that files line up one after the other; on a terminal, as wide as the cells need, so
// that the table fits an 80-column window. A cell wider than its column widens it, so rows never shift.
AuditColumns audit_columns(const std::vector<AuditRow>& rows, const TextOptions& options) {
  AuditColumns columns;
  if (options.width)
    columns = {render_detail::display_width("setup"), render_detail::display_width("layers"),
               render_detail::display_width("pairs out of range")};
  for (const auto& row : rows) {
    columns.setup = std::max(columns.setup, render_detail::display_width(row.setup));
    columns.layers = std::max(columns.layers, render_detail::display_width(row.layers));
    columns.pairs = std::max(columns.pairs, render_detail::display_width(row.pairs));
  }
  return columns;
}

// `text` and spaces up to `width` columns (fmt pads by code points, not by what a terminal shows).
std::string padded(const std::string& text, int width) {
  return text + std::string(static_cast<std::size_t>(std::max(0, width - render_detail::display_width(text))), ' ');
}

bool render_audit(const FileResult& file, const TextOptions& options, std::string& out) {
  if (render_missing_audit(file, options, out)) return true;
  bool any = false;
  for (const auto& a : file.audit.setups) any = any || !a.out_of_range_pairs.empty();
  if (!any) return false;
  auto to = std::back_inserter(out);
  fmt::format_to(to, "{}\n",
                 render_detail::styled(fmt::format("audit of {} at {} tokens (pairs out of range):",
                                                   terminal_safe(file.path), file.audit.target_tokens),
                                       render_detail::heading_style(), options.color));
  if (file.audit.history_from_unedited)
    fmt::format_to(to, "  trained lengths read from {} as written, before its --set edits\n", terminal_safe(file.path));
  const std::vector<AuditRow> rows = audit_rows(file);
  const AuditColumns columns = audit_columns(rows, options);
  const std::string headings =
      fmt::format("  {} {} {:>9} {:>9}  {}", padded("setup", columns.setup), padded("layers", columns.layers),
                  "trained", "attended", padded("pairs out of range", columns.pairs));
  fmt::format_to(to, "{}\n", render_detail::hanging(headings + " ", "worst (seen° → needed°)", options.width));
  for (const auto& row : rows) {
    const std::string cells =
        fmt::format("  {} {} {:>9} {:>9}  {}", padded(row.setup, columns.setup), padded(row.layers, columns.layers),
                    row.trained, row.attended, padded(row.pairs, columns.pairs));
    fmt::format_to(to, "{}\n", render_detail::hanging(cells + " ", row.worst, options.width));
  }
  render_trained_lengths(file, out);
  return true;
}

class TextCheckRenderer : public CheckRenderer {
 public:
  TextCheckRenderer(std::ostream& out, const TextOptions& options) : out_(out), options_(options) {}

  // The findings are fitted as they are written (their help commands laid out by the command printer, which
  // fit_lines must not rewrap); the audit and the engine views after them are fitted line by line.
  std::string render_file(const FileResult& file) const override {
    std::string findings;
    if (file.error) return findings;
    const std::string where = file.resolved_file ? render_detail::linked_path(*file.resolved_file) : file.path;
    for (const auto& d : file.diagnostics) render_detail::append_finding_text(where, d, findings, options_);
    if (options_.quiet) return findings;
    std::string part;
    bool audited = render_audit(file, options_, part);
    if (file.engines) {
      std::ostringstream engines;
      render_engines_text(file.model, *file.engines, engines, options_);
      part += terminal_safe_lines(engines.str());
      audited = true;
    }
    if (!file.diagnostics.empty() || audited) part += '\n';
    return findings + render_detail::fit_lines(part, options_.width);  // the audit heading, a long setup name or path
  }

  void write_file(const std::string& part) override { out_ << part; }

  void end(const CheckCounts& c) override {
    render_fixed(c.baseline_fixed);
    const int findings = c.errors + c.warnings + c.infos;
    std::string summary = fmt::format("{} finding{} ({} error{}, {} warning{}, {} info) in {} file{}", findings,
                                      findings == 1 ? "" : "s", c.errors, c.errors == 1 ? "" : "s", c.warnings,
                                      c.warnings == 1 ? "" : "s", c.infos, c.files, c.files == 1 ? "" : "s");
    if (c.unreadable_files > 0) summary += fmt::format("; {} could not be read", c.unreadable_files);
    const auto style = c.errors > 0     ? render_detail::error_style()
                       : c.warnings > 0 ? render_detail::warning_style()
                                        : render_detail::heading_style();
    if (c.skipped_files > 0)
      summary += fmt::format("; {} config.json file{} skipped (not model configs)", c.skipped_files,
                             c.skipped_files == 1 ? "" : "s");
    if (c.baseline_used)
      summary += fmt::format("; {} suppressed by the baseline, {} fixed since it", c.baseline_suppressed,
                             c.baseline_fixed.size());
    out_ << render_detail::styled(fitted(summary, 0, 2, options_), style, options_.color) << "\n";
  }

 private:
  void render_fixed(const std::vector<BaselineEntry>& fixed) {
    if (fixed.empty()) return;
    out_ << "fixed since the baseline:\n";
    for (const auto& e : fixed)
      out_ << fmt::format("  {}: {} at {}: {}\n", terminal_safe(e.path), terminal_safe(e.code), pointer_text(e.pointer),
                          terminal_safe(e.message));
    out_ << "\n";
  }

  std::ostream& out_;
  TextOptions options_;
};

}  // namespace

namespace render_detail {
std::unique_ptr<CheckRenderer> make_text_check_renderer(std::ostream& out, const TextOptions& options) {
  return std::make_unique<TextCheckRenderer>(out, options);
}
}  // namespace render_detail

}  // namespace ropelens
