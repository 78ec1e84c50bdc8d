// The command printer (ropelens/render/command_text.hpp): words as the shell splits them, an option with its value,
// lines ended by " \".
#include "ropelens/render/command_text.hpp"

#include <algorithm>
#include <cctype>

#include "render/writers/terminal_text.hpp"

namespace ropelens {
namespace {

bool blank(char c) { return c == ' ' || c == '\t' || c == '\n'; }

// The end of the word starting at `at`: the first blank outside quotes and escapes.
std::size_t word_end(std::string_view line, std::size_t at) {
  char quote = 0;
  for (; at < line.size(); ++at) {
    const char c = line[at];
    if (quote == '\'') {
      if (c == '\'') quote = 0;
    } else if (c == '\\') {
      ++at;  // the escaped character, also inside double quotes
    } else if (quote == '"') {
      if (c == '"') quote = 0;
    } else if (c == '\'' || c == '"') {
      quote = c;
    } else if (blank(c)) {
      return at;
    }
  }
  return line.size();
}

bool is_option(const std::string& word) {
  return word.size() > 1 && word[0] == '-' && !(word[1] >= '0' && word[1] <= '9');
}

bool is_assignment(const std::string& word) {
  const std::size_t equals = word.find('=');
  return equals != std::string::npos && equals > 0 &&
         (std::isalpha(static_cast<unsigned char>(word[0])) || word[0] == '_') &&
         std::all_of(word.begin(), word.begin() + static_cast<std::ptrdiff_t>(equals),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

// What stays on one line: an option and the value after it ("--set '/rope_theta=2e6'", "-c 131072"), else one word;
// and the program with what follows it ("vllm serve", "python -m sglang.launch_server", "llama-server -m x.gguf").
std::vector<std::string> layout_units(std::string_view command) {
  std::vector<std::string> units;
  bool awaits_value = false;
  bool before_program = true;
  bool joins_program = false;
  for (std::string& word : shell_line_words(command)) {
    const bool option = is_option(word);
    if ((awaits_value && !option) || joins_program) {
      units.back() += " " + word;
      awaits_value = joins_program && option && word.find('=') == std::string::npos;
      joins_program = false;
      continue;
    }
    joins_program = before_program && !is_assignment(word);
    before_program = before_program && !joins_program;
    awaits_value = option && word.find('=') == std::string::npos;
    units.push_back(std::move(word));
  }
  return units;
}

}  // namespace

std::vector<std::string> shell_line_words(std::string_view command) {
  std::vector<std::string> words;
  for (std::size_t at = 0; at < command.size();) {
    if (blank(command[at])) {
      ++at;
      continue;
    }
    const std::size_t end = std::min(word_end(command, at), command.size());
    words.emplace_back(command.substr(at, end - at));
    at = end;
  }
  return words;
}

std::string command_text(std::string_view command, const CommandLayout& layout) {
  const std::string margin(static_cast<std::size_t>(layout.indent), ' ');
  const std::vector<std::string> units = layout_units(command);
  std::string one_line = margin;
  for (std::size_t i = 0; i < units.size(); ++i) one_line += (i > 0 ? " " : "") + units[i];
  if (!layout.width || render_detail::display_width(one_line) <= *layout.width) return one_line + "\n";

  constexpr int kContinuation = 2;  // " \"
  const std::string continued = margin + std::string(static_cast<std::size_t>(layout.hang), ' ');
  std::string out = margin;
  int column = layout.indent;
  bool line_empty = true;
  for (const std::string& unit : units) {
    const int width = render_detail::display_width(unit);
    if (!line_empty && column + 1 + width + kContinuation > *layout.width) {
      out += " \\\n" + continued;
      column = layout.indent + layout.hang;
      line_empty = true;
    }
    if (!line_empty) {
      out += ' ';
      ++column;
    }
    out += unit;
    column += width;
    line_empty = false;
  }
  return out + "\n";
}

}  // namespace ropelens
