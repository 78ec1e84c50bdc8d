// suggest as text, at the terminal's width (80 columns piped): the audit at the target, then each change with its
// verification, its effect on short inputs, the config fragment and the engine commands. Commands go through the
// command printer (ropelens/render/command_text.hpp), so each pastes into a shell as printed. Only the config.json
// fragment, which is JSON and no command, breaks after its commas.
#include <algorithm>
#include <sstream>

#include <fmt/format.h>

#include "render/writers/format.hpp"
#include "render/writers/terminal_text.hpp"
#include "ropelens/model/text.hpp"
#include "ropelens/render/command_text.hpp"
#include "ropelens/render/render.hpp"
#include "ropelens/suggest/suggest.hpp"

namespace ropelens {
namespace {

using render_detail::display_width;
using render_detail::fixed;
using render_detail::wrapped;

constexpr int kPipedWidth = 80;
constexpr int kCommandIndent = 6;
constexpr int kNarrowest = 20;  // the fragment's pieces never get narrower than this

// Splits the config fragment (JSON, no command) where JSON allows whitespace, after a ',', ':', '{' or '[' outside
// strings, so that each piece fits `room` columns where it can.
std::vector<std::string> json_pieces(const std::string& fragment, int room) {
  std::vector<std::string> pieces(1);
  bool in_string = false;
  bool escaped = false;
  std::size_t last_break = std::string::npos;  // in the current piece
  for (const char c : fragment) {
    pieces.back() += c;
    bool breakable = false;
    if (in_string) {
      in_string = !(c == '"' && !escaped);
      escaped = c == '\\' && !escaped;
    } else {
      in_string = c == '"';
      breakable = c == ',' || c == ':' || c == '{' || c == '[';
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

// The fragment's pieces, each further one indented four columns more.
std::string fragment_text(const std::string& fragment, int width) {
  const std::string margin(static_cast<std::size_t>(kCommandIndent), ' ');
  std::string out;
  for (const std::string& piece : json_pieces(fragment, std::max(kNarrowest, width - kCommandIndent - 6)))
    out += (out.empty() ? margin : margin + "    ") + piece + "\n";
  return out;
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

class SuggestText {
 public:
  SuggestText(int width, std::ostream& out) : width_(width), out_(out) {}

  void write(const SuggestReport& report) {
    paragraph(fmt::format("{} ({}) at {} tokens", report.source, report.model_type, report.target_tokens), 0, 2);
    if (report.suggestions.empty()) {
      for (const auto& note : report.notes) paragraph(note, 0, 2);
      return;
    }
    paragraph(fmt::format("{} pairs out of range now (pairs {}); {}", report.out_of_range_before.size(),
                          index_ranges(report.out_of_range_before), report.trained_sentence),
              0, 2);
    for (const auto& note : report.notes) paragraph("note: " + note, 0, 6);
    for (std::size_t i = 0; i < report.suggestions.size(); ++i) suggestion(report, i);
  }

 private:
  void paragraph(std::string_view text, int indent, int hanging) {
    out_ << wrapped(std::string(static_cast<std::size_t>(indent), ' ') + std::string(text), width_, hanging) << "\n";
  }

  void command(const std::string& line) { out_ << command_text(line, {width_, kCommandIndent, 2}); }

  void verification(const SuggestReport& report, const Suggestion& s) {
    const std::string what = s.check_command.empty()
                                 ? fmt::format("check of the file with these flags at {} tokens", report.target_tokens)
                                 : fmt::format("check of the edited config at {} tokens", report.target_tokens);
    if (s.verified) {
      paragraph(fmt::format("verified: {} exits 0{}", what, s.check_command.empty() ? "" : ":"), 3, 5);
    } else {
      paragraph(fmt::format("NOT verified: {} exits 1 with {} finding{} that fail{} it:", what, s.remaining.size(),
                            s.remaining.size() == 1 ? "" : "s", s.remaining.size() == 1 ? "s" : ""),
                3, 5);
      for (const auto& finding : s.remaining) paragraph(remaining_text(finding), kCommandIndent, 8);
      if (!s.check_command.empty()) paragraph("to see them:", 3, 5);
    }
    if (!s.check_command.empty()) command(s.check_command);
  }

  void snippets(const Suggestion& s) {
    for (const auto& snippet : s.snippets) {
      std::string name(display_name(snippet.engine));
      if (!snippet.versions.empty()) name += " " + snippet.versions;
      paragraph(name + ":", 3, 5);
      if (!snippet.command.empty()) command(snippet.command);
      for (const auto& note : snippet.notes) paragraph(fmt::format("({})", note), kCommandIndent, 7);
    }
  }

  void suggestion(const SuggestReport& report, std::size_t index) {
    const Suggestion& s = report.suggestions[index];
    out_ << "\n";
    paragraph(fmt::format("{}. {}", index + 1, s.change), 0, 3);
    verification(report, s);
    paragraph("short inputs: " + short_input_text(s, report.original_tokens), 3, 5);
    if (!s.engine_limits.empty()) {
      std::vector<std::string> limits;
      for (const auto& [label, tokens] : s.engine_limits) limits.push_back(fmt::format("{} {}", label, tokens));
      paragraph(fmt::format("engine limits after the change: {}", fmt::join(limits, ", ")), 3, 5);
    }
    if (!s.config_fragment.empty()) {
      out_ << "   config.json:\n";
      out_ << fragment_text(s.config_fragment.dump(), width_);
    }
    snippets(s);
  }

  int width_;
  std::ostream& out_;
};

}  // namespace

void render_suggest_text(const SuggestReport& report, std::ostream& out, const TextOptions& options) {
  std::ostringstream block;
  SuggestText(options.width.value_or(kPipedWidth), block).write(report);
  out << terminal_safe_lines(block.str());
}

}  // namespace ropelens
