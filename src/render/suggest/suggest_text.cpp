// suggest as text, 80 columns wide: the audit at the target, then each change with its verification, its
// effect on short inputs, the config fragment and the engine commands. Commands are split into shell words
// joined by backslash-newlines, and a word is never split, however long: every command pastes into a shell as
// printed, at any terminal width. Only the config.json fragment, which is JSON and no command, breaks after its
// commas.
#include <sstream>

#include <fmt/format.h>

#include "render/writers/format.hpp"
#include "render/writers/terminal_text.hpp"
#include "ropelens/model/text.hpp"
#include "ropelens/render/render.hpp"
#include "ropelens/suggest/suggest.hpp"

namespace ropelens {
namespace {

using render_detail::display_width;
using render_detail::fixed;
using render_detail::wrapped;

constexpr int kWidth = 80;
constexpr int kCommandIndent = 6;

// Shell words: spaces outside single quotes separate them.
std::vector<std::string> shell_words(const std::string& command) {
  std::vector<std::string> words(1);
  bool quoted = false;
  for (char c : command) {
    if (c == '\'') quoted = !quoted;
    if (c == ' ' && !quoted) {
      if (!words.back().empty()) words.emplace_back();
      continue;
    }
    words.back() += c;
  }
  if (words.back().empty()) words.pop_back();
  return words;
}

// Splits one word where its JSON (from its first '{' or '[') allows whitespace, after a ',', ':', '{' or '['
// outside JSON strings, so that each piece fits `room` columns where it can.
std::vector<std::string> json_pieces(const std::string& word, int room) {
  std::vector<std::string> pieces(1);
  const std::size_t json_start = word.find_first_of("{[");
  bool in_string = false;
  bool escaped = false;
  std::size_t last_break = std::string::npos;  // in the current piece
  for (std::size_t i = 0; i < word.size(); ++i) {
    const char c = word[i];
    pieces.back() += c;
    bool breakable = false;
    if (json_start != std::string::npos && i >= json_start) {
      if (in_string) {
        in_string = !(c == '"' && !escaped);
        escaped = c == '\\' && !escaped;
      } else {
        in_string = c == '"';
        breakable = c == ',' || c == ':' || c == '{' || c == '[';
      }
    }
    if (display_width(pieces.back()) > room && last_break != std::string::npos) {
      std::string rest = pieces.back().substr(last_break);
      pieces.back().resize(last_break);
      pieces.push_back(std::move(rest));
      last_break = std::string::npos;
    }
    if (breakable) last_break = pieces.back().size();
  }
  return pieces;
}

// An option and its value stay together: "--set '/rope_theta=2e6'", "-c 131072".
std::vector<std::string> shell_units(const std::string& command) {
  std::vector<std::string> units;
  bool awaits_value = false;
  for (std::string& word : shell_words(command)) {
    const bool option = word.size() > 1 && word[0] == '-';
    if (awaits_value && !option) {
      units.back() += " " + word;
      awaits_value = false;
      continue;
    }
    units.push_back(std::move(word));
    awaits_value = option;
  }
  return units;
}

// The command laid out within kWidth: options with their values fill a line, a line ends in " \",
// continuation lines indent by two more columns. A unit longer than a line stands on a line of its own, whole;
// only JSON that is no command (`split_json`) is split by json_pieces.
std::string command_text(const std::string& command, int indent, bool split_json = false) {
  const std::string margin(static_cast<std::size_t>(indent), ' ');
  const std::string continued = margin + "  ";
  const int room = kWidth - indent - 6;  // the continuation indents and " \"
  std::string out = margin;
  int column = indent;
  bool line_empty = true;
  for (const std::string& unit : shell_units(command)) {
    const int width = display_width(unit);
    if (!line_empty && column + 1 + width + 2 > kWidth) {
      out += " \\\n" + continued;
      column = indent + 2;
      line_empty = true;
    }
    if (!line_empty) {
      out += ' ';
      ++column;
    }
    const std::vector<std::string> pieces =
        split_json && width > room ? json_pieces(unit, room) : std::vector<std::string>{unit};
    for (std::size_t i = 0; i < pieces.size(); ++i) {
      if (i > 0) {
        out += "\n" + continued + "  ";
        column = indent + 4;
      }
      out += pieces[i];
      column += display_width(pieces[i]);
    }
    line_empty = false;
  }
  return out + "\n";
}

std::string paragraph(std::string_view text, int indent, int hanging) {
  return wrapped(std::string(static_cast<std::size_t>(indent), ' ') + std::string(text), kWidth, hanging) + "\n";
}

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

std::string remaining_text(const RemainingFinding& finding) {
  if (finding.code.empty()) return fmt::format("error: {}", finding.message);
  return fmt::format("{} {} at {}: {}", finding.code, to_string(finding.severity), finding.pointer, finding.message);
}

void render_verification(const SuggestReport& report, const Suggestion& s, std::ostream& out) {
  const std::string what = s.check_command.empty()
                               ? fmt::format("check of the file with these flags at {} tokens", report.target_tokens)
                               : fmt::format("check of the edited config at {} tokens", report.target_tokens);
  if (s.verified) {
    out << paragraph(fmt::format("verified: {} exits 0{}", what, s.check_command.empty() ? "" : ":"), 3, 5);
  } else {
    out << paragraph(fmt::format("NOT verified: {} exits 1 with {} finding{} that fail{} it:", what, s.remaining.size(),
                                 s.remaining.size() == 1 ? "" : "s", s.remaining.size() == 1 ? "s" : ""),
                     3, 5);
    for (const auto& finding : s.remaining) out << paragraph(remaining_text(finding), kCommandIndent, 8);
    if (!s.check_command.empty()) out << paragraph("to see them:", 3, 5);
  }
  if (!s.check_command.empty()) out << command_text(s.check_command, kCommandIndent);
}

void render_snippets(const Suggestion& s, std::ostream& out) {
  for (const auto& snippet : s.snippets) {
    std::string name(display_name(snippet.engine));
    if (!snippet.versions.empty()) name += " " + snippet.versions;
    out << paragraph(name + ":", 3, 5);
    if (!snippet.command.empty()) out << command_text(snippet.command, kCommandIndent);
    for (const auto& note : snippet.notes) out << paragraph(fmt::format("({})", note), kCommandIndent, 7);
  }
}

void render_suggestion(const SuggestReport& report, std::size_t index, std::ostream& out) {
  const Suggestion& s = report.suggestions[index];
  out << "\n" << paragraph(fmt::format("{}. {}", index + 1, s.change), 0, 3);
  render_verification(report, s, out);
  out << paragraph("short inputs: " + short_input_text(s, report.original_tokens), 3, 5);
  if (!s.engine_limits.empty()) {
    std::vector<std::string> limits;
    for (const auto& [label, tokens] : s.engine_limits) limits.push_back(fmt::format("{} {}", label, tokens));
    out << paragraph(fmt::format("engine limits after the change: {}", fmt::join(limits, ", ")), 3, 5);
  }
  if (!s.config_fragment.empty()) {
    out << "   config.json:\n";
    out << command_text(s.config_fragment.dump(), kCommandIndent, true);
  }
  render_snippets(s, out);
}

void write_suggest_text(const SuggestReport& report, std::ostream& out) {
  out << paragraph(fmt::format("{} ({}) at {} tokens", report.source, report.model_type, report.target_tokens), 0, 2);
  if (report.suggestions.empty()) {
    for (const auto& note : report.notes) out << paragraph(note, 0, 2);
    return;
  }
  out << paragraph(fmt::format("{} pairs out of range now (pairs {}); {}", report.out_of_range_before.size(),
                               index_ranges(report.out_of_range_before), report.trained_sentence),
                   0, 2);
  for (const auto& note : report.notes) out << paragraph("note: " + note, 0, 6);
  for (std::size_t i = 0; i < report.suggestions.size(); ++i) render_suggestion(report, i, out);
}

}  // namespace

void render_suggest_text(const SuggestReport& report, std::ostream& out) {
  std::ostringstream block;
  write_suggest_text(report, block);
  out << terminal_safe_lines(block.str());
}

}  // namespace ropelens
