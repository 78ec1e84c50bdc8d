#include "support.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>

extern char** environ;

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

std::filesystem::path cache_blob(const std::filesystem::path& repo, const std::string& commit,
                                 const std::string& name) {
  const std::string etag = "etag-" + commit.substr(0, 6) + "-" + name;
  const auto snapshot = repo / "snapshots" / commit;
  std::filesystem::create_directories(repo / "blobs");
  std::filesystem::create_directories(snapshot);
  std::filesystem::create_symlink(std::filesystem::path("../../blobs") / etag, snapshot / name);
  return repo / "blobs" / etag;
}

void cache_file(const std::filesystem::path& repo, const std::string& commit, const std::string& name,
                const std::string& text) {
  write_file(cache_blob(repo, commit, name).string(), text);
}

namespace {

RunResult run_command(const std::string& command_line, const std::string& stdin_text) {
  static int counter = 0;
  auto dir = std::filesystem::temp_directory_path() / ("ropelens-test-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  auto base = dir / std::to_string(counter++);
  std::string in = base.string() + ".in", out = base.string() + ".out", err = base.string() + ".err";
  write_file(in, stdin_text);
  std::string command = "{ " + command_line + "; } <" + in + " >" + out + " 2>" + err;
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

// Output is compared byte for byte: the caller's colour settings must not reach the binary.
const std::string kPlainBinary = "env -u FORCE_COLOR -u NO_COLOR " + std::string(ROPELENS_BINARY);

}  // namespace

RunResult run_cli(const std::string& arguments, const std::string& stdin_text) {
  return run_command(kPlainBinary + " " + arguments, stdin_text);
}

RunResult run_cli_in(const std::string& directory, const std::string& arguments, const std::string& stdin_text) {
  return run_command("cd '" + directory + "' && " + kPlainBinary + " " + arguments, stdin_text);
}

std::string binary() { return ROPELENS_BINARY; }

std::string xml_parse_error(const std::string& text) {
  static int counter = 0;
  const auto path = std::filesystem::temp_directory_path() /
                    ("ropelens-xml-" + std::to_string(getpid()) + "-" + std::to_string(counter++) + ".xml");
  write_file(path.string(), text);
  RunResult parsed = run_command(
      "python3 -c 'import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])' '" + path.string() + "'", "");
  std::filesystem::remove(path);
  return parsed.exit_code == 0 ? std::string() : "not well-formed XML: " + parsed.err;
}

int occurrences(const std::string& text, const std::string& part) {
  int n = 0;
  for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

std::vector<double> chart_values(const std::string& svg, const std::string& series) {
  std::vector<double> out;
  const std::regex point("<circle class=\"pt " + series + "[^>]* data-value=\"([^\"]+)\"");
  for (std::sregex_iterator it(svg.begin(), svg.end(), point), end; it != end; ++it) out.push_back(std::stod((*it)[1]));
  return out;
}

RunResult run_program(const std::vector<std::string>& argv) {
  TempDir dir;
  const std::string out = dir.file("out"), err = dir.file("err");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_addopen(&actions, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  std::vector<std::string> words = argv;
  std::vector<char*> args;
  for (auto& word : words) args.push_back(word.data());
  args.push_back(nullptr);
  pid_t pid = 0;
  RunResult result;
  if (posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ) != 0) {
    posix_spawn_file_actions_destroy(&actions);
    result.exit_code = -1;
    result.err = "cannot start " + argv.at(0);
    return result;
  }
  posix_spawn_file_actions_destroy(&actions);
  int status = 0;
  waitpid(pid, &status, 0);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.out = read_file(out);
  result.err = read_file(err);
  return result;
}

RunResult run_shell(const std::string& command_line) { return run_command(command_line, ""); }

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

ScratchGit::ScratchGit() { git({"init", "-q"}); }

void ScratchGit::write(const std::string& relative, const std::string& text) const {
  std::filesystem::create_directories(std::filesystem::path(file(relative)).parent_path());
  write_file(file(relative), text);
}

std::string ScratchGit::git(const std::vector<std::string>& args, const std::string& in) const {
  std::vector<std::string> argv = {"git", "-C", in.empty() ? path() : file(in)};
  argv.insert(argv.end(), args.begin(), args.end());
  const RunResult run = run_program(argv);
  if (run.exit_code != 0) throw std::runtime_error("git " + args.front() + " failed: " + run.err);
  return run.out;
}

void ScratchGit::commit(const std::string& message) const {
  git({"add", "-A"});
  git({"-c", "user.name=ropelens tests", "-c", "user.email=tests@ropelens.invalid", "commit", "-q", "-m", message});
}

}  // namespace ropelens::test
