// The one printer of commands: every command ropelens prints for a person to run (suggest's check and engine
// snippets, fit's serve lines, examples in help, commands in a finding's help) is laid out here, so that it pastes
// into a POSIX shell (bash, zsh, dash) as printed, at any width.
//
// A command is one POSIX shell line, the form JSON documents carry: build it with shell_line (model/text.hpp), which
// quotes each word for the shell, and print it with command_text. The printer
// - breaks only between shell words, never inside one: a quoted JSON argument stays on one line, past the width if
//   it must;
// - keeps an option with its value ("--max-model-len 131072") on one line where they fit;
// - ends every line but the last with " \" and indents the lines it continues.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ropelens {

struct CommandLayout {
  std::optional<int> width;  // the columns to fit; none: the whole command on one line
  int indent = 0;            // spaces before the first line
  int hang = 2;              // spaces past `indent` before each continued line
};

// The command laid out, each line ending in "\n".
std::string command_text(std::string_view command, const CommandLayout& layout);

// The words of a POSIX shell line as written (quotes and backslashes kept), split where the shell splits them:
// at blanks outside single quotes, double quotes and backslash escapes. An unterminated quote runs to the end.
std::vector<std::string> shell_line_words(std::string_view command);

}  // namespace ropelens
