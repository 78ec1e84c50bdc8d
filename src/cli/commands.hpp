// Internal: one setup function per subcommand (CLI11's subcommand-in-files pattern). Each binds its
// options and registers a callback that runs the pipeline and stores the exit code.
#pragma once

#include <functional>
#include <string>

#include <CLI/CLI.hpp>

namespace ropelens::cli {

struct Outcome {
  int exit_code = 0;
};

void setup_inspect(CLI::App& app, Outcome& outcome);
void setup_table(CLI::App& app, Outcome& outcome);
void setup_check(CLI::App& app, Outcome& outcome);
void setup_explain(CLI::App& app, Outcome& outcome);
void setup_rules(CLI::App& app, Outcome& outcome);
void setup_suggest(CLI::App& app, Outcome& outcome);

int run(int argc, char** argv);

// Runs a command body and maps every failure to exit 2 with one line on stderr: unreadable input, a bad
// value, running out of memory, and any other exception (reported as an internal error).
int guarded(const std::function<int()>& body);

// Prints "ropelens: error: …" on stderr.
void print_error(const std::string& message);

}  // namespace ropelens::cli
