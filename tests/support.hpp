// Shared test helpers: paths into testdata/ and running the built binary.
#pragma once

#include <cstdlib>
#include <optional>

#include <filesystem>
#include <string>
#include <vector>

namespace ropelens::test {

// Configs many test files read, relative to the source directory.
inline const std::string kQwen3 = "testdata/configs/qwen/qwen3-8b.json";
inline const std::string kLlama31 = "testdata/configs/llama/llama-3.1-8b-instruct-bnb8bit-finetune.json";

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
RunResult run_cli_in(const std::string& directory, const std::string& arguments, const std::string& stdin_text = "");
// Runs a program from an argument vector (no shell), stdin empty, capturing stdout and stderr.
RunResult run_program(const std::vector<std::string>& argv);
// Runs a shell command line (e.g. under `script` for a pseudo-terminal), capturing stdout and stderr.
RunResult run_shell(const std::string& command_line);
// The path of the built ropelens binary.
std::string binary();

// "" when `text` parses as XML (Python's xml.etree, a second parser beside the writer), else the parse error.
std::string xml_parse_error(const std::string& text);

// How often `part` occurs in `text`.
int occurrences(const std::string& text, const std::string& part);
// The data-value of every chart point of a series (<circle class="pt SERIES …" data-value="…">), in order.
std::vector<double> chart_values(const std::string& svg, const std::string& series);

// Compares with a snapshot file; UPDATE_SNAPSHOTS=1 rewrites it. Returns "" or a description of the difference.
std::string compare_snapshot(const std::string& relative_path, const std::string& actual);

// A fresh directory under the system temp folder, removed with everything in it at the end of the scope.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::string file(const std::string& relative) const { return (path_ / relative).string(); }
  std::string path() const { return path_.string(); }

 private:
  std::filesystem::path path_;
};

// A git repository in a fresh folder, removed at the end of the scope; git runs from an argument vector.
class ScratchGit {
 public:
  ScratchGit();
  std::string path() const { return dir_.path(); }
  std::string file(const std::string& relative) const { return dir_.file(relative); }
  // Writes `text` to `relative`, creating its folders.
  void write(const std::string& relative, const std::string& text) const;
  // Runs git in the repository (or in its folder `in`) and returns what it printed; throws when git fails.
  std::string git(const std::vector<std::string>& args, const std::string& in = "") const;
  // Commits everything (git add -A) as a test author.
  void commit(const std::string& message) const;

 private:
  TempDir dir_;
};

// A file in a fake Hugging Face hub cache, laid out as huggingface_hub stores it: the bytes in <repo>/blobs/, a
// relative symlink <repo>/snapshots/<commit>/<name> to them. Returns the blob's path, for the caller to fill.
std::filesystem::path cache_blob(const std::filesystem::path& repo, const std::string& commit, const std::string& name);
// The same, with the blob holding `text`.
void cache_file(const std::filesystem::path& repo, const std::string& commit, const std::string& name,
                const std::string& text);

// Sets an environment variable for a scope and restores it after.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    ::setenv(name, value.c_str(), 1);
  }
  ~ScopedEnv() {
    if (old_) ::setenv(name_, old_->c_str(), 1);
    else ::unsetenv(name_);
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
  std::optional<std::string> old_;
};

}  // namespace ropelens::test
