// Internal: the global -v/--verbose and --log-level options that turn on the diagnostic log (ropelens/log/log.hpp).
#pragma once

#include <CLI/CLI.hpp>

namespace ropelens::cli {

// -v logs at info, -vv at debug, -vvv at trace; --log-level LEVEL wins over -v. The log starts when the command
// line has been read, before the subcommand runs.
void add_logging_options(CLI::App& app);

}  // namespace ropelens::cli
