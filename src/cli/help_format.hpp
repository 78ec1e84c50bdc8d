// Internal: CLI11's help, fitted to the terminal (80 columns piped): each option's description wraps in its column,
// the usage line and other long lines at spaces, and a command's examples are laid out by the command printer.
#pragma once

#include <memory>

#include <CLI/CLI.hpp>

namespace ropelens::cli {

// The formatter every command's help is written with; set on the app before its subcommands are added (they copy
// it).
std::shared_ptr<CLI::Formatter> fitted_help_formatter();

}  // namespace ropelens::cli
