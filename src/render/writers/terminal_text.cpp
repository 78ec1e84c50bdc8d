#include "render/writers/terminal_text.hpp"

#include <algorithm>
#include <cstdint>

namespace ropelens::render_detail {
namespace {

// Length of the escape sequence at text[at] (CSI: ESC [ parameters final-byte), or 0.
std::size_t escape_length(std::string_view text, std::size_t at) {
  if (text[at] != '\x1b' || at + 1 >= text.size() || text[at + 1] != '[') return 0;
  std::size_t end = at + 2;
  while (end < text.size() && !(text[end] >= 0x40 && text[end] <= 0x7E)) ++end;
  return end < text.size() ? end + 1 - at : text.size() - at;
}

std::uint32_t next_code_point(std::string_view text, std::size_t& at) {
  const auto lead = static_cast<std::uint8_t>(text[at]);
  const std::size_t length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
  std::uint32_t c = length == 1 ? lead : lead & (0x7Fu >> length);
  for (std::size_t i = 1; i < length && at + i < text.size(); ++i)
    c = (c << 6) | (static_cast<std::uint8_t>(text[at + i]) & 0x3Fu);
  at += length;
  return c;
}

int terminal_columns_of(std::uint32_t c) {
  if ((c >= 0x0300 && c <= 0x036F) || (c >= 0x200B && c <= 0x200F) || (c >= 0xFE00 && c <= 0xFE0F)) return 0;
  const bool wide = (c >= 0x1100 && c <= 0x115F) || (c >= 0x2E80 && c <= 0xA4CF) || (c >= 0xAC00 && c <= 0xD7A3) ||
                    (c >= 0xF900 && c <= 0xFAFF) || (c >= 0xFE30 && c <= 0xFE4F) || (c >= 0xFF00 && c <= 0xFF60) ||
                    (c >= 0xFFE0 && c <= 0xFFE6) || (c >= 0x1F300 && c <= 0x1F64F) || (c >= 0x1F900 && c <= 0x1F9FF) ||
                    (c >= 0x20000 && c <= 0x3FFFD);
  return wide ? 2 : 1;
}

}  // namespace

int display_width(std::string_view text) {
  int width = 0;
  for (std::size_t at = 0; at < text.size();) {
    if (std::size_t escape = escape_length(text, at); escape > 0) {
      at += escape;
      continue;
    }
    width += terminal_columns_of(next_code_point(text, at));
  }
  return width;
}

std::vector<std::string> wrap(std::string_view text, int width, int indent, std::size_t unbreakable_prefix) {
  const std::size_t leading = std::min(text.find_first_not_of(' '), text.size());
  std::vector<std::string> lines{std::string(leading, ' ')};
  int line_width = static_cast<int>(leading);
  bool line_has_word = false;
  for (std::size_t at = leading; at < text.size();) {
    const std::size_t space =
        at < unbreakable_prefix ? std::min(unbreakable_prefix, text.size()) : std::min(text.find(' ', at), text.size());
    const std::string_view word = text.substr(at, space - at);
    at = space + 1;
    if (word.empty()) continue;
    const int word_width = display_width(word);
    if (line_has_word && line_width + 1 + word_width > width) {
      lines.emplace_back(static_cast<std::size_t>(indent), ' ');
      line_width = indent;
      line_has_word = false;
    }
    if (line_has_word) {
      lines.back() += ' ';
      ++line_width;
    }
    lines.back().append(word);
    line_width += word_width;
    line_has_word = true;
  }
  return lines;
}

std::string wrapped(std::string_view text, int width, int indent, std::size_t unbreakable_prefix) {
  std::string out;
  bool first = true;
  for (const auto& line : wrap(text, width, indent, unbreakable_prefix)) {
    if (!first) out += '\n';
    out += line;
    first = false;
  }
  return out;
}

namespace {

// Where to end `line` in `width` columns, searching from byte `from`: the last space at which it fits, else (one
// word wider than the line) the first space after it, else the end.
std::size_t break_at(std::string_view line, int width, std::size_t from) {
  if (display_width(line) <= width) return line.size();
  std::size_t best = std::string_view::npos;
  for (std::size_t space = line.find(' ', from); space != std::string_view::npos; space = line.find(' ', space + 1)) {
    if (space == 0 || line[space - 1] == ' ') continue;
    if (display_width(line.substr(0, space)) > width) return best != std::string_view::npos ? best : space;
    best = space;
  }
  return best != std::string_view::npos ? best : line.size();
}

// Breaks one line at spaces, each further line indented `indent` columns, keeping the runs of spaces inside each
// piece (a row's alignment) as they were.
void break_line(std::string_view line, int width, int indent, std::size_t first_break_from, std::string& out) {
  std::string rest(line);
  std::size_t from = std::max(first_break_from, std::min(rest.find_first_not_of(' '), rest.size()));
  for (;;) {
    const std::size_t end = break_at(rest, width, from);
    const std::string piece = rest.substr(0, end);
    out.append(piece, 0, piece.find_last_not_of(' ') + 1);
    const std::size_t next = rest.find_first_not_of(' ', end);
    if (next == std::string::npos) return;
    out += '\n';
    rest = std::string(static_cast<std::size_t>(indent), ' ') + rest.substr(next);
    from = static_cast<std::size_t>(indent);
  }
}

}  // namespace

std::string fit_lines(std::string_view text, std::optional<int> width, int hang) {
  if (!width) return std::string(text);
  std::string out;
  for (std::size_t start = 0; start < text.size();) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    const std::string_view line = text.substr(start, end - start);
    if (display_width(line) <= *width) out.append(line);
    else {
      const int lead = static_cast<int>(std::min(line.find_first_not_of(' '), line.size()));
      break_line(line, *width, std::min(lead + hang, *width / 2), 0, out);
    }
    if (end < text.size()) out += '\n';
    start = end + 1;
  }
  return out;
}

std::string hanging(std::string_view prefix, std::string_view text, std::optional<int> width) {
  const std::string line = std::string(prefix) + std::string(text);
  if (!width || display_width(line) <= *width) return line;
  constexpr int kNarrowestColumn = 24;
  const int column = display_width(prefix);
  const int lead = static_cast<int>(std::min(prefix.find_first_not_of(' '), prefix.size()));
  const int indent = *width - column >= kNarrowestColumn ? column : lead + 2;
  std::string out;
  break_line(line, *width, indent, prefix.size(), out);
  return out;
}

std::string styled(std::string_view text, fmt::text_style style, bool color) {
  return color ? fmt::format(style, "{}", text) : std::string(text);
}

fmt::text_style error_style() { return fmt::fg(fmt::terminal_color::bright_red) | fmt::emphasis::bold; }
fmt::text_style warning_style() { return fmt::fg(fmt::terminal_color::yellow) | fmt::emphasis::bold; }
fmt::text_style info_style() { return fmt::fg(fmt::terminal_color::cyan) | fmt::emphasis::bold; }
fmt::text_style heading_style() { return fmt::emphasis::bold; }
fmt::text_style out_of_range_style() { return fmt::fg(fmt::terminal_color::red); }

}  // namespace ropelens::render_detail
