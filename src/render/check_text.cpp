// ruff-like text: one block per finding, then a summary and each file's out-of-range pairs.
#include <fmt/format.h>

#include "format.hpp"
#include "ropelens/render.hpp"

namespace ropelens {
namespace {

using render_detail::ranges;

std::string position(const FileResult& file, const Diagnostic& d) {
  if (d.where.line) return fmt::format("{}:{}:{}", file.path, *d.where.line, d.where.column.value_or(1));
  return file.path;
}

void render_finding(const FileResult& file, const Diagnostic& d, std::ostream& out) {
  out << fmt::format("{}: {} {} [{}] {}\n", position(file, d), d.code, to_string(d.severity), d.name, d.message);
  out << fmt::format("  at {}\n", d.where.pointer.empty() ? "(document)" : d.where.pointer);
  for (const auto& r : d.related) out << fmt::format("  see {}\n", r.pointer.empty() ? "(document)" : r.pointer);
  if (!d.help.empty()) out << fmt::format("  help: {}\n", d.help);
}

void render_audit(const FileResult& file, std::ostream& out) {
  bool any = false;
  for (const auto& a : file.audit.setups) any = any || !a.out_of_range_pairs.empty();
  if (!any) return;
  out << fmt::format("\naudit of {} at {} tokens (pairs out of range):\n", file.path, file.target_tokens);
  out << fmt::format("  {:<22} {:<14} {:>9} {:>9} {:>5}  {}\n", "setup", "layers", "trained", "attended", "pairs",
                     "worst pair: seen° -> needed°");
  for (const auto& a : file.audit.setups) {
    if (a.out_of_range_pairs.empty()) continue;
    const RopeSetup& s = file.model.setups[static_cast<std::size_t>(a.setup)];
    const PairAudit& worst = a.pairs[static_cast<std::size_t>(*a.worst_pair)];
    out << fmt::format("  {:<22} {:<14} {:>9} {:>9} {:>5}  {} ({}): {} -> {}\n", s.name, ranges(s.layers),
                       a.extension_tokens > 0 ? a.extension_tokens : a.pretrain_tokens, a.attended_tokens,
                       a.out_of_range_pairs.size(), worst.pair, ranges(a.out_of_range_pairs),
                       render_detail::fixed(worst.seen_deg, 3), render_detail::fixed(worst.needed_deg, 3));
  }
}

}  // namespace

void render_check_text(const CheckReport& report, std::ostream& out) {
  std::size_t findings = 0;
  for (const auto& file : report.files) {
    if (file.error) continue;
    for (const auto& d : file.diagnostics) {
      render_finding(file, d, out);
      ++findings;
    }
  }
  if (findings > 0) out << "\n";
  out << fmt::format("{} finding{} ({} error{}, {} warning{}, {} info) in {} file{}", findings, findings == 1 ? "" : "s",
                     report.errors, report.errors == 1 ? "" : "s", report.warnings, report.warnings == 1 ? "" : "s",
                     report.infos, report.files.size(), report.files.size() == 1 ? "" : "s");
  if (report.unreadable_files > 0) out << fmt::format("; {} could not be read", report.unreadable_files);
  out << "\n";
  for (const auto& file : report.files)
    if (!file.error) render_audit(file, out);
}

}  // namespace ropelens
