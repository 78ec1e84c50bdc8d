// Internal: the command line as data, read from the CLI11 definitions themselves, so the man page and the shell
// completions list exactly the subcommands and options the parser accepts.
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace ropelens::cli {

struct OptionReference {
  std::vector<std::string> names;    // "-v", "--verbose"; empty for a positional argument
  std::string positional;            // "PATH" for a positional argument
  std::string value_name;            // "TEXT", "INT", …; empty for a flag
  std::vector<std::string> choices;  // the values an IsMember check accepts
  std::string help;
  bool required = false;
  bool repeatable = false;  // may be given more than once, or takes several values
};

struct CommandReference {
  std::string name;
  std::string summary;
  std::vector<OptionReference> options;  // options first, then positional arguments
};

struct CliReference {
  std::string name;
  std::string summary;
  std::vector<OptionReference> options;  // global options
  std::vector<CommandReference> commands;
};

// Every subcommand must be bound first (Subcommands::bind_all). Hidden options (no group) are left out.
CliReference describe_cli(const CLI::App& app);

}  // namespace ropelens::cli
