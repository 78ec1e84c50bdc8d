// ruff-like text: per file, one block per finding and the audit table of out-of-range pairs; then a summary.
#include <sstream>

#include <fmt/format.h>

#include "check_renderers.hpp"
#include "format.hpp"
#include "ropelens/engine_report.hpp"
#include "ropelens/render.hpp"

namespace ropelens {
namespace {


std::string position(const std::string& path, const Diagnostic& d) {
  if (d.where.line) return fmt::format("{}:{}:{}", path, *d.where.line, d.where.column.value_or(1));
  return path;
}

}  // namespace

void render_detail::append_finding_text(const std::string& path, const Diagnostic& d, std::string& out) {
  auto to = std::back_inserter(out);
  fmt::format_to(to, "{}: {} {} [{}] {}\n", position(path, d), d.code, to_string(d.severity), d.name, d.message);
  fmt::format_to(to, "  at {}{}\n", d.where.pointer.empty() ? "(document)" : d.where.pointer,
                 d.where.byte_offset ? fmt::format(" (byte {})", *d.where.byte_offset) : "");
  for (const auto& r : d.related) fmt::format_to(to, "  see {}\n", r.pointer.empty() ? "(document)" : r.pointer);
  if (!d.help.empty()) fmt::format_to(to, "  help: {}\n", d.help);
}

namespace {

bool render_audit(const FileResult& file, std::string& out) {
  bool any = false;
  for (const auto& a : file.audit.setups) any = any || !a.out_of_range_pairs.empty();
  if (!any) return false;
  auto to = std::back_inserter(out);
  fmt::format_to(to, "audit of {} at {} tokens (pairs out of range):\n", file.path, file.audit.target_tokens);
  fmt::format_to(to, "  {:<20} {:<12} {:>9} {:>9}  {:<22} {}\n", "setup", "layers", "trained", "attended",
                 "pairs out of range", "worst (seen° → needed°)");
  for (const auto& a : file.audit.setups) {
    if (a.out_of_range_pairs.empty()) continue;
    const RopeSetup& s = file.model.setups[static_cast<std::size_t>(a.setup)];
    const PairAudit& worst = a.pairs[static_cast<std::size_t>(*a.worst_pair)];
    fmt::format_to(to, "  {:<20} {:<12} {:>9} {:>9}  {:<22} pair {}: {} → {}\n", s.name, index_ranges(s.layers),
                   a.extension_tokens > 0 ? a.extension_tokens : a.pretrain_tokens, a.attended_tokens,
                   fmt::format("{} ({})", index_ranges(a.out_of_range_pairs), a.out_of_range_pairs.size()), worst.pair,
                   render_detail::fixed(worst.seen_deg, 4), render_detail::fixed(worst.needed_deg, 4));
  }
  return true;
}

class TextCheckRenderer : public CheckRenderer {
 public:
  explicit TextCheckRenderer(std::ostream& out) : out_(out) {}

  std::string render_file(const FileResult& file) const override {
    std::string part;
    if (file.error) return part;
    for (const auto& d : file.diagnostics) render_detail::append_finding_text(file.path, d, part);
    bool audited = render_audit(file, part);
    if (file.engines) {
      std::ostringstream engines;
      render_engines_text(file.model, *file.engines, engines);
      part += engines.str();
      audited = true;
    }
    if (!file.diagnostics.empty() || audited) part += '\n';
    return part;
  }

  void write_file(const std::string& part) override { out_ << part; }

  void end(const CheckCounts& c) override {
    render_fixed(c.baseline_fixed);
    const int findings = c.errors + c.warnings + c.infos;
    out_ << fmt::format("{} finding{} ({} error{}, {} warning{}, {} info) in {} file{}", findings,
                        findings == 1 ? "" : "s", c.errors, c.errors == 1 ? "" : "s", c.warnings,
                        c.warnings == 1 ? "" : "s", c.infos, c.files, c.files == 1 ? "" : "s");
    if (c.unreadable_files > 0) out_ << fmt::format("; {} could not be read", c.unreadable_files);
    if (c.skipped_files > 0)
      out_ << fmt::format("; {} config.json file{} skipped (not model configs)", c.skipped_files,
                          c.skipped_files == 1 ? "" : "s");
    if (c.baseline_used)
      out_ << fmt::format("; {} suppressed by the baseline, {} fixed since it", c.baseline_suppressed,
                          c.baseline_fixed.size());
    out_ << "\n";
  }

 private:
  void render_fixed(const std::vector<BaselineEntry>& fixed) {
    if (fixed.empty()) return;
    out_ << "fixed since the baseline:\n";
    for (const auto& e : fixed)
      out_ << fmt::format("  {}: {} at {}: {}\n", terminal_safe(e.path), e.code,
                          e.pointer.empty() ? "(document)" : terminal_safe(e.pointer), terminal_safe(e.message));
    out_ << "\n";
  }

  std::ostream& out_;
};

}  // namespace

namespace render_detail {
std::unique_ptr<CheckRenderer> make_text_check_renderer(std::ostream& out) {
  return std::make_unique<TextCheckRenderer>(out);
}
}  // namespace render_detail

}  // namespace ropelens
