// Shared test helpers: paths into testdata/ and running the built binary.
#pragma once

#include <string>

namespace ropelens::test {

std::string source_path(const std::string& relative);  // ROPELENS_SOURCE_DIR/relative
std::string read_file(const std::string& path);
void write_file(const std::string& path, const std::string& text);

struct RunResult {
  int exit_code = 0;
  std::string out;
  std::string err;
};
// Runs build/ropelens with the given arguments (shell-quoted by the caller), capturing stdout and stderr.
RunResult run_cli(const std::string& arguments, const std::string& stdin_text = "");
// The same, with `directory` as the working directory (where .ropelens.json is looked up).
RunResult run_cli_in(const std::string& directory, const std::string& arguments);

// Compares with a snapshot file; UPDATE_SNAPSHOTS=1 rewrites it. Returns "" or a description of the difference.
std::string compare_snapshot(const std::string& relative_path, const std::string& actual);

}  // namespace ropelens::test
