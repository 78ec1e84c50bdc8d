#include <unistd.h>

#include <filesystem>

#include <catch2/catch.hpp>

#include "ropelens/input.hpp"
#include "support.hpp"

namespace fs = std::filesystem;
using ropelens::expand_paths;
using ropelens::InputError;
using ropelens::test::write_file;

TEST_CASE("a directory scan finds every config.json and GGUF file below it, sorted, without following links or "
          "entering hidden folders",
          "[input]") {
  const fs::path root = fs::temp_directory_path() / ("ropelens-finder-" + std::to_string(::getpid()));
  fs::remove_all(root);
  write_file((root / "b/config.json").string(), "{}");
  write_file((root / "a/deep/er/config.json").string(), "{}");
  write_file((root / ".hidden/config.json").string(), "{}");
  write_file((root / "a/other.json").string(), "{}");
  write_file((root / "q/model-Q4_K_M.gguf").string(), "GGUF");
  write_file((root / "q/notes.gguf.txt").string(), "");
  fs::create_directories(root / "c/config.json");  // a directory named config.json is not a config
  write_file((root / "target.json").string(), "{}");
  fs::create_directories(root / "d");
  fs::create_symlink(root / "target.json", root / "d/config.json");  // a link to a file counts
  fs::create_directory_symlink(root / "a", root / "loop");           // a link to a directory is not followed

  const std::string r = root.string();
  CHECK(expand_paths(r) == std::vector<std::string>{r + "/a/deep/er/config.json", r + "/b/config.json",
                                                    r + "/d/config.json", r + "/q/model-Q4_K_M.gguf"});
  CHECK(expand_paths(r + "/.hidden") == std::vector<std::string>{r + "/.hidden/config.json"});  // named: kept
  CHECK(expand_paths(r + "/b") == std::vector<std::string>{r + "/b/config.json"});  // a model folder
  CHECK(expand_paths(r + "/a/other.json") == std::vector<std::string>{r + "/a/other.json"});
  CHECK_THROWS_AS(expand_paths(r + "/c/config.json"), InputError);  // no config below it
  fs::remove_all(root);
}
