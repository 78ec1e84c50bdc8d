// suggest as text: the audit at the target, then each change with its verification, its effect on short
// inputs, the config fragment and the engine commands.
#include <sstream>

#include <fmt/format.h>

#include "render/writers/format.hpp"
#include "ropelens/render/render.hpp"
#include "ropelens/suggest/suggest.hpp"
#include "ropelens/model/text.hpp"

namespace ropelens {
namespace {

using render_detail::fixed;

std::string short_input_text(const Suggestion& s, std::int64_t original_tokens) {
  const ShortInputEffect& e = s.short_inputs;
  std::string text = fmt::format(
      "static: every input, also those shorter than {} tokens, runs with {} of {} pairs "
      "changed by up to ×{} from now",
      original_tokens, e.pairs_changed, e.pairs_total, fixed(e.max_ratio, 4));
  if (e.magnitude_after != e.magnitude_before)
    text += fmt::format(" and magnitude {} instead of {} (logits ×{})", fixed(e.magnitude_after, 5),
                        fixed(e.magnitude_before, 5), fixed(e.magnitude_after * e.magnitude_after, 5));
  return text + fmt::format("; enable it only where inputs need more than {} tokens", original_tokens);
}

void render_suggestion(const SuggestReport& report, std::size_t index, std::ostream& out) {
  const Suggestion& s = report.suggestions[index];
  out << fmt::format("\n{}. {}\n", index + 1, s.change);
  if (s.verified) {
    out << fmt::format(
        "   verified: check reports no error and no finding that puts {} tokens out of reach:\n      {}\n",
        report.target_tokens, s.check_command);
  } else {
    out << fmt::format("   NOT verified: {}\n", s.check_command);
    for (const auto& reason : s.not_verified_because) out << fmt::format("      {}\n", reason);
  }
  out << fmt::format("   short inputs: {}\n", short_input_text(s, report.original_tokens));
  if (!s.engine_limits.empty()) {
    std::vector<std::string> limits;
    for (const auto& [label, tokens] : s.engine_limits) limits.push_back(fmt::format("{} {}", label, tokens));
    out << fmt::format("   engine limits after the change: {}\n", fmt::join(limits, ", "));
  }
  out << fmt::format("   config.json: {}\n", s.config_fragment.dump());
  for (const auto& snippet : s.snippets) {
    std::string name(display_name(snippet.engine));
    if (!snippet.versions.empty()) name += " " + snippet.versions;
    out << fmt::format("   {}:\n", name);
    if (!snippet.command.empty()) out << fmt::format("      {}\n", snippet.command);
    for (const auto& note : snippet.notes) out << fmt::format("      ({})\n", note);
  }
}

}  // namespace

namespace {

void write_suggest_text(const SuggestReport& report, std::ostream& out) {
  out << fmt::format("{} ({}) at {} tokens\n", terminal_safe(report.source), terminal_safe(report.model_type),
                     report.target_tokens);
  if (report.suggestions.empty()) {
    for (const auto& note : report.notes) out << terminal_safe(note) << "\n";
    return;
  }
  out << fmt::format("{} pairs out of range now (pairs {}); trained length {} ({})\n",
                     report.out_of_range_before.size(), index_ranges(report.out_of_range_before),
                     report.original_tokens, report.original_from);
  for (const auto& note : report.notes) out << fmt::format("note: {}\n", terminal_safe(note));
  for (std::size_t i = 0; i < report.suggestions.size(); ++i) render_suggestion(report, i, out);
}

}  // namespace

void render_suggest_text(const SuggestReport& report, std::ostream& out) {
  std::ostringstream block;
  write_suggest_text(report, block);
  out << terminal_safe_lines(block.str());
}

}  // namespace ropelens
