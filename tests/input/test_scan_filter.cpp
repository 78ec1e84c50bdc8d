// What a directory scan leaves out: default folders, --exclude globs, .gitignore (through git), and what a
// path looks like in the output.
#include <filesystem>

#include <catch2/catch.hpp>

#include "ropelens/input/git.hpp"
#include "ropelens/input/input.hpp"
#include "support.hpp"

namespace fs = std::filesystem;
using namespace ropelens;
using ropelens::test::TempDir;
using ropelens::test::write_file;

namespace {

std::vector<std::string> found_below(const std::string& root, const ScanFilter& filter = {}) {
  std::vector<std::string> relative;
  for (const auto& file : find_model_files(root, filter).files)
    relative.push_back(fs::path(file).lexically_relative(root).generic_string());
  return relative;
}

void git(const std::string& directory, const std::vector<std::string>& args) {
  run_git(directory, args, directory, 1u << 20);
}

}  // namespace

TEST_CASE("globs: * and ? stay within a name, ** spans folders, [...] is a class", "[input][scan]") {
  CHECK(glob_match("node_modules", "node_modules"));
  CHECK_FALSE(glob_match("node_modules", "node_modules2"));
  CHECK(glob_match(".*", ".venv"));
  CHECK_FALSE(glob_match(".*", "venv"));
  CHECK(glob_match("*.gguf", "model-Q4.gguf"));
  CHECK_FALSE(glob_match("*.gguf", "a/model.gguf"));
  CHECK(glob_match("models/*/config.json", "models/a/config.json"));
  CHECK_FALSE(glob_match("models/*/config.json", "models/a/b/config.json"));
  CHECK(glob_match("models/**/config.json", "models/a/b/config.json"));
  CHECK(glob_match("models/**/config.json", "models/config.json"));
  CHECK(glob_match("**/drafts", "x/y/drafts"));
  CHECK(glob_match("m?del", "model"));
  CHECK_FALSE(glob_match("a?b", "a/b"));
  CHECK(glob_match("q[0-9]", "q4"));
  CHECK_FALSE(glob_match("q[!0-9]", "q4"));
  CHECK(glob_match("[ab", "[ab"));  // an unclosed class is a literal
}

TEST_CASE("a scan leaves out hidden folders, node_modules, virtual environments, caches and build folders",
          "[input][scan]") {
  TempDir dir;
  for (const char* path :
       {"node_modules/x/config.json", ".venv/config.json", "venv/lib/config.json", "__pycache__/config.json",
        "build/config.json", ".cache/config.json", "models/llama/config.json", "models/q.gguf"})
    write_file(dir.file(path), "{}");
  CHECK(found_below(dir.path()) == std::vector<std::string>{"models/llama/config.json", "models/q.gguf"});

  ScanFilter nothing_left_out;
  nothing_left_out.excludes.clear();
  CHECK(found_below(dir.path(), nothing_left_out).size() == 8);
}

TEST_CASE("exclude globs match a name anywhere or, with a slash, a path below their base folder", "[input][scan]") {
  TempDir dir;
  for (const char* path : {"models/old/a/config.json", "models/new/config.json", "vendor/config.json", "x.bak.gguf"})
    write_file(dir.file(path), "{}");
  ScanFilter filter;
  for (const auto& pattern : exclude_patterns({"vendor", "*.bak.gguf", "models/old"}, dir.path()))
    filter.excludes.push_back(pattern);
  CHECK(found_below(dir.path(), filter) == std::vector<std::string>{"models/new/config.json"});

  // The same slash pattern relative to another folder matches nothing here.
  ScanFilter elsewhere;
  for (const auto& pattern : exclude_patterns({"models/old"}, dir.file("models")))
    elsewhere.excludes.push_back(pattern);
  CHECK(found_below(dir.path(), elsewhere).size() == 4);
}

TEST_CASE("inside a git work tree a scan honours .gitignore", "[input][scan][git]") {
  TempDir dir;
  git(dir.path(), {"init", "-q"});
  write_file(dir.file(".gitignore"), "checkpoints/\n*.tmp.gguf\n");
  for (const char* path : {"checkpoints/step-100/config.json", "models/a/config.json", "scratch.tmp.gguf", "b.gguf"})
    write_file(dir.file(path), "{}");
  CHECK(found_below(dir.path()) == std::vector<std::string>{"b.gguf", "models/a/config.json"});
  CHECK(enclosing_work_tree(dir.file("models/a")) == fs::path(dir.path()).lexically_normal().string());

  ScanFilter no_gitignore;
  no_gitignore.respect_gitignore = false;
  CHECK(found_below(dir.path(), no_gitignore).size() == 4);
}

TEST_CASE("paths are shown relative to the working directory when they lie under it", "[input]") {
  const std::string cwd = fs::current_path().string();
  CHECK(shown_path(cwd + "/testdata/configs/qwen/qwen3-8b.json") == "testdata/configs/qwen/qwen3-8b.json");
  CHECK(shown_path("./testdata/../testdata/configs") == "testdata/configs");
  CHECK(shown_path("testdata/configs") == "testdata/configs");
  CHECK(shown_path("/definitely/elsewhere/config.json") == "/definitely/elsewhere/config.json");
  CHECK(shown_path("-") == "-");
  // Absolute paths that are not plainly normal, the working directory itself, and a sibling sharing its prefix.
  CHECK(shown_path(cwd + "/testdata/./configs") == "testdata/configs");
  CHECK(shown_path(cwd + "//testdata") == "testdata");
  CHECK(shown_path(cwd + "/x/..") == ".");
  CHECK(shown_path(cwd) == ".");
  CHECK(shown_path(cwd + "-sibling/config.json") == cwd + "-sibling/config.json");
}
