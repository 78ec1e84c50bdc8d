#include "support.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace ropelens::test {

std::string source_path(const std::string& relative) { return std::string(ROPELENS_SOURCE_DIR) + "/" + relative; }

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void write_file(const std::string& path, const std::string& text) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

namespace {

RunResult run_command(const std::string& prefix, const std::string& arguments, const std::string& stdin_text) {
  static int counter = 0;
  auto dir = std::filesystem::temp_directory_path() / ("ropelens-test-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  auto base = dir / std::to_string(counter++);
  std::string in = base.string() + ".in", out = base.string() + ".out", err = base.string() + ".err";
  write_file(in, stdin_text);
  std::string command = prefix + std::string(ROPELENS_BINARY) + " " + arguments + " <" + in + " >" + out + " 2>" + err;
  int status = std::system(command.c_str());
  RunResult result;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.out = read_file(out);
  result.err = read_file(err);
  std::filesystem::remove(in);
  std::filesystem::remove(out);
  std::filesystem::remove(err);
  return result;
}

}  // namespace

RunResult run_cli(const std::string& arguments, const std::string& stdin_text) {
  return run_command("", arguments, stdin_text);
}

RunResult run_cli_in(const std::string& directory, const std::string& arguments) {
  return run_command("cd '" + directory + "' && ", arguments, "");
}

std::string compare_snapshot(const std::string& relative_path, const std::string& actual) {
  std::string path = source_path(relative_path);
  const char* update = std::getenv("UPDATE_SNAPSHOTS");
  if (update && std::string(update) == "1") {
    write_file(path, actual);
    return {};
  }
  if (!std::filesystem::exists(path)) return "missing snapshot " + relative_path + " (run with UPDATE_SNAPSHOTS=1)";
  std::string expected = read_file(path);
  if (expected == actual) return {};
  std::istringstream a(expected), b(actual);
  std::string la, lb;
  for (int line = 1;; ++line) {
    bool ga = static_cast<bool>(std::getline(a, la)), gb = static_cast<bool>(std::getline(b, lb));
    if (!ga && !gb) break;
    if (la != lb || ga != gb)
      return relative_path + ":" + std::to_string(line) + ": expected\n  " + (ga ? la : "<end>") + "\ngot\n  " +
             (gb ? lb : "<end>");
  }
  return relative_path + ": differs";
}

TempDir::TempDir() {
  static std::atomic<int> counter{0};
  path_ = std::filesystem::temp_directory_path() /
          ("ropelens-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
  std::filesystem::remove_all(path_);
  std::filesystem::create_directories(path_);
}

TempDir::~TempDir() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

}  // namespace ropelens::test
