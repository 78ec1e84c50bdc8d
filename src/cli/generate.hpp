// Internal: the man page and the shell completions, generated from the command line's own definitions
// (reference.hpp), so a subcommand or option added later appears in them without further work.
#pragma once

#include <ostream>
#include <string>
#include <string_view>

#include "reference.hpp"

namespace ropelens::cli {

void write_man_page(const CliReference& cli, std::string_view version_line, std::ostream& out);
void write_bash_completion(const CliReference& cli, std::ostream& out);
void write_zsh_completion(const CliReference& cli, std::ostream& out);
void write_fish_completion(const CliReference& cli, std::ostream& out);

class Subcommands;
// The hidden `--generate man|bash|zsh|fish`: prints the page or script on stdout and exits 0. The build runs it
// to make ropelens.1 and the completion files it installs.
void add_generate_option(CLI::App& app, Subcommands& subcommands);

}  // namespace ropelens::cli
