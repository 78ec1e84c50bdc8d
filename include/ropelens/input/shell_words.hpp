// POSIX shell word splitting for launch scripts, without running anything: comments, single and double quotes,
// backslash escapes and line continuations, `VAR=value cmd` prefixes, `export VAR=value`, and several commands
// separated by newlines, `;`, `&&`, `||`, `|` or `&`. `$VAR` and `${VAR}` expand to a value the script assigned
// earlier (or exported); any other expansion is kept as written.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace ropelens {

struct ShellCommand {
  int line = 1;                            // the line the command starts on (1-based)
  std::map<std::string, std::string> env;  // the script's exports and this command's VAR=value prefixes
  std::vector<std::string> words;          // the command and its arguments, quotes removed
};

// Throws std::invalid_argument for a quote that is never closed ("line 3: unterminated ' quote").
std::vector<ShellCommand> split_shell_commands(std::string_view script);

}  // namespace ropelens
