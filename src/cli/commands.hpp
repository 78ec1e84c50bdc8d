// Internal: the subcommands (CLI11's subcommand-in-files pattern). Each file binds its options to the subcommand
// it is given and registers a callback that runs the pipeline and stores the exit code.
#pragma once

#include <functional>
#include <span>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "run.hpp"

namespace ropelens::cli {

struct Outcome {
  int exit_code = 0;
};

void setup_inspect(CLI::App* cmd, Outcome& outcome);
void setup_table(CLI::App* cmd, Outcome& outcome);
void setup_check(CLI::App* cmd, Outcome& outcome);
void setup_explain(CLI::App* cmd, Outcome& outcome);
void setup_rules(CLI::App* cmd, Outcome& outcome);
void setup_suggest(CLI::App* cmd, Outcome& outcome);
void setup_diff(CLI::App* cmd, Outcome& outcome);
void setup_report(CLI::App* cmd, Outcome& outcome);
void setup_fit(CLI::App* cmd, Outcome& outcome);

// An example `help COMMAND` shows: what it does, and the command as one POSIX shell line (laid out by the command
// printer). Each runs as printed from the source tree (a test runs them and pastes them at three widths).
struct Example {
  const char* what;
  const char* command;
};

// One subcommand: its name, its one-line summary, the function that binds its options and callback, and its
// examples.
struct Command {
  const char* name;
  const char* summary;
  void (*setup)(CLI::App* cmd, Outcome& outcome);
  std::span<const Example> examples;
};
// Every subcommand, in the order `--help` and the man page list them. A new subcommand is one line here.
std::span<const Command> commands();

// Adds every subcommand to `app` with its name and summary. Its options are bound when the command line names
// it (CLI11's pre-parse callback), so a run builds the options of one subcommand, not of all of them.
class Subcommands {
 public:
  Subcommands(CLI::App& app, Outcome& outcome);
  Subcommands(const Subcommands&) = delete;
  Subcommands& operator=(const Subcommands&) = delete;

  // Binds every subcommand's options now, for the man page and the shell completions.
  void bind_all();

 private:
  struct Entry {
    CLI::App* cmd;
    const Command* command;
    bool bound = false;
  };
  void bind(Entry& entry);

  Outcome& outcome_;
  std::vector<Entry> entries_;
};

// Runs a command body and maps every failure to exit 2 with one line on stderr: unreadable input, a bad
// value, running out of memory, and any other exception (reported as an internal error).
int guarded(const std::function<int()>& body);

// Prints "ropelens: error: …" on stderr.
void print_error(const std::string& message);
// Prints "ropelens: warning: …" on stderr.
void print_warning(const std::string& message);

}  // namespace ropelens::cli
