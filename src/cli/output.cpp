#include "output.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string_view>

#include "options.hpp"
#include "ropelens/input/input.hpp"

namespace ropelens::cli {
namespace {

constexpr int kDefaultColumns = 80;

std::string_view environment(const char* name) {
  const char* value = std::getenv(name);
  return value == nullptr ? std::string_view() : std::string_view(value);
}

bool stdout_is_terminal() { return ::isatty(STDOUT_FILENO) == 1; }

bool color_wanted(const OutputOptions& options, const Output& output) {
  if (options.color == "always") return true;
  if (options.color == "never") return false;
  if (!environment("NO_COLOR").empty()) return false;
  const std::string_view force = environment("FORCE_COLOR");
  if (!force.empty() && force != "0" && force != "false") return true;
  return output.to_stdout() && stdout_is_terminal() && environment("TERM") != "dumb";
}

int terminal_columns() {
  winsize size{};
  if (::ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) return size.ws_col;
  const std::string_view columns = environment("COLUMNS");
  int value = 0;
  auto [end, error] = std::from_chars(columns.data(), columns.data() + columns.size(), value);
  if (error == std::errc() && end == columns.data() + columns.size() && value > 0) return value;
  return kDefaultColumns;
}

}  // namespace

void add_output_option(CLI::App& cmd, OutputOptions& options) {
  cmd.add_option("-o,--output", options.path, "write the document to FILE instead of stdout (- for stdout)");
}

void buffer_redirected_stdout() {
  // glibc ignores the size when it allocates the buffer itself; a static array outlives the flush at exit.
  static char block[std::size_t{1} << 16];
  if (!stdout_is_terminal()) std::setvbuf(stdout, block, _IOFBF, sizeof block);
}

void add_color_option(CLI::App& cmd, OutputOptions& options) {
  cmd.add_option("--color", options.color,
                 "colour text output: auto (on a terminal, unless NO_COLOR is set; FORCE_COLOR forces it), always, "
                 "never")
      ->check(one_of(color_choices()));
}

void add_wide_option(CLI::App& cmd, OutputOptions& options) {
  cmd.add_flag("--wide", options.wide, "on a terminal, print every column even when the table is wider than it");
}

void add_quiet_option(CLI::App& cmd, OutputOptions& options, const std::string& help) {
  cmd.add_flag("-q,--quiet", options.quiet, help);
}

Output::Output(const std::string& path) : path_(path) {
  if (path.empty() || path == "-") return;
  to_file_ = true;
  file_.open(path, std::ios::binary | std::ios::trunc);
  if (!file_) throw InputError(path, std::string("cannot write: ") + std::strerror(errno));
}

void Output::close() {
  if (!to_file_) {
    std::cout.flush();
    return;
  }
  file_.close();
  if (file_.fail()) throw InputError(path_, "could not be written whole");
}

int help_width() { return stdout_is_terminal() ? terminal_columns() : kDefaultColumns; }

TextOptions text_options(const OutputOptions& options, const Output& output) {
  TextOptions text;
  text.color = color_wanted(options, output);
  if (output.to_stdout() && stdout_is_terminal() && !options.wide) text.width = terminal_columns();
  text.quiet = options.quiet;
  return text;
}

}  // namespace ropelens::cli
