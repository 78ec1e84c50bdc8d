// Internal: where a command's document goes (-o/--output, else stdout) and how its text meets the terminal
// (--color, --wide, -q, NO_COLOR, FORCE_COLOR, the window width). Decided here, passed to renderers as
// TextOptions.
#pragma once

#include <fstream>
#include <iostream>
#include <ostream>
#include <string>

#include <CLI/CLI.hpp>

#include "ropelens/render/render.hpp"

namespace ropelens::cli {

struct OutputOptions {
  std::string path;            // -o/--output; "" or "-" is stdout
  std::string color = "auto";  // --color auto|always|never
  bool wide = false;           // --wide: every column even on a narrow terminal
  bool quiet = false;          // -q/--quiet
};

// Stdout into a pipe or a file is written in 64 KiB blocks rather than C stdio's 4 KiB (a JSON scan of thousands
// of files writes tens of megabytes). A terminal keeps its line buffering. Call before anything is printed.
void buffer_redirected_stdout();

void add_output_option(CLI::App& cmd, OutputOptions& options);
void add_color_option(CLI::App& cmd, OutputOptions& options);
void add_wide_option(CLI::App& cmd, OutputOptions& options);
void add_quiet_option(CLI::App& cmd, OutputOptions& options, const std::string& help);

// The destination of one document: the file named by -o (created or truncated) or stdout.
class Output {
 public:
  explicit Output(const std::string& path);  // throws InputError naming the file when it cannot be created
  std::ostream& stream() { return to_file_ ? static_cast<std::ostream&>(file_) : std::cout; }
  bool to_stdout() const { return !to_file_; }
  const std::string& path() const { return path_; }
  void close();  // flushes; throws InputError when the document could not be written whole

 private:
  std::string path_;
  bool to_file_ = false;
  std::ofstream file_;
};

// Colour: --color always/never; else off with NO_COLOR (non-empty), on with FORCE_COLOR (non-empty, not 0),
// else on when stdout is a terminal (and TERM is not "dumb"). Width: on a terminal and without --wide, the
// window's columns (TIOCGWINSZ), else COLUMNS, else 80; piped or to a file, none.
TextOptions text_options(const OutputOptions& options, const Output& output);

// The width help and the rule catalog are written at: the window's columns on a terminal (else COLUMNS), 80 piped.
int help_width();

}  // namespace ropelens::cli
