#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>

#include <catch2/catch.hpp>

#include "ropelens/input/input.hpp"
#include "support.hpp"

namespace fs = std::filesystem;
using ropelens::describe;
using ropelens::expand_paths;
using ropelens::InputError;
using ropelens::SkippedPath;
using ropelens::test::write_file;

TEST_CASE(
    "a directory scan finds every config.json and GGUF file below it, sorted, without following links or "
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
  CHECK(expand_paths(r + "/b") == std::vector<std::string>{r + "/b/config.json"});              // a model folder
  CHECK(expand_paths(r + "/a/other.json") == std::vector<std::string>{r + "/a/other.json"});
  CHECK_THROWS_AS(expand_paths(r + "/c/config.json"), InputError);  // no config below it

  // Asked, the walk says what it passed over and why (the -v log prints these).
  std::vector<SkippedPath> skipped;
  CHECK(expand_paths(r, &skipped).size() == 4);
  std::vector<std::string> described;
  for (const auto& entry : skipped) described.push_back(describe(entry));
  std::sort(described.begin(), described.end());
  CHECK(described == std::vector<std::string>{r + "/.hidden: excluded (default excludes or --exclude)",
                                              r + "/a/other.json: not named config.json or *.gguf",
                                              r + "/loop: link to a directory, not followed",
                                              r + "/q/notes.gguf.txt: not named config.json or *.gguf",
                                              r + "/target.json: not named config.json or *.gguf"});
  fs::remove_all(root);
}

TEST_CASE("a scan reports a config.json that is not a regular file, and a directory it cannot open", "[input]") {
  const fs::path root = fs::temp_directory_path() / ("ropelens-finder-skip-" + std::to_string(::getpid()));
  fs::remove_all(root);
  write_file((root / "a/config.json").string(), "{}");
  fs::create_directories(root / "b");
  REQUIRE(::mkfifo((root / "b/config.json").c_str(), 0600) == 0);
  fs::create_directories(root / "locked");
  fs::permissions(root / "locked", fs::perms::none);
  const bool locked_out = ::access((root / "locked").c_str(), R_OK) != 0;  // root reads every directory anyway

  const std::string r = root.string();
  std::vector<SkippedPath> skipped;
  CHECK(expand_paths(r, &skipped) == std::vector<std::string>{r + "/a/config.json"});
  std::vector<std::string> described;
  for (const auto& entry : skipped) described.push_back(describe(entry));
  CHECK(std::count(described.begin(), described.end(), r + "/b/config.json: not a regular file") == 1);
  if (locked_out)
    CHECK(std::count(described.begin(), described.end(), r + "/locked: directory cannot be read (Permission denied)") ==
          1);
  CHECK(expand_paths(r) == std::vector<std::string>{r + "/a/config.json"});  // not asked: the same files
  fs::permissions(root / "locked", fs::perms::owner_all);
  fs::remove_all(root);
}

TEST_CASE("a scan of many folders side by side (listed on several threads) finds the same sorted files", "[input]") {
  const fs::path root = fs::temp_directory_path() / ("ropelens-finder-wide-" + std::to_string(::getpid()));
  fs::remove_all(root);
  constexpr int kFolders = 1200;  // several threads' worth of folders below the root
  std::vector<std::string> expected;
  for (int i = 0; i < kFolders; ++i) {
    const std::string folder = (root / ("m" + std::to_string(i))).string();
    write_file(folder + "/nested/config.json", "{}");
    write_file(folder + "/README.md", "");
    expected.push_back(folder + "/nested/config.json");
  }
  std::sort(expected.begin(), expected.end());
  std::vector<SkippedPath> skipped;
  CHECK(expand_paths(root.string(), &skipped) == expected);
  REQUIRE(skipped.size() == static_cast<std::size_t>(kFolders));
  CHECK(std::is_sorted(skipped.begin(), skipped.end(),
                       [](const SkippedPath& a, const SkippedPath& b) { return a.path < b.path; }));
  CHECK(describe(skipped.front()) == (root / "m0/README.md").string() + ": not named config.json or *.gguf");
  fs::remove_all(root);
}

TEST_CASE("a walk notes which folders hold a safetensors index, so loading a found config need not look for one",
          "[input]") {
  ropelens::test::TempDir dir;
  write_file(dir.file("with/config.json"), "{}");
  write_file(dir.file("with/model.safetensors.index.json"), "{}");
  write_file(dir.file("without/config.json"), "{}");
  write_file(dir.file("model.gguf"), "GGUF");  // a file in the scanned folder itself
  fs::create_directories(dir.file("only-index"));
  write_file(dir.file("only-index/model.safetensors.index.json"), "{}");

  const ropelens::FoundFiles found = ropelens::find_model_files(dir.path());
  REQUIRE(found.folders_with_weights_index);
  CHECK(*found.folders_with_weights_index ==
        std::vector<std::string>{dir.path() + "/only-index/", dir.path() + "/with/"});
  CHECK_FALSE(ropelens::listed_without_weights_index(found, dir.file("with/config.json")));
  CHECK(ropelens::listed_without_weights_index(found, dir.file("without/config.json")));
  CHECK(ropelens::listed_without_weights_index(found, dir.file("model.gguf")));

  // A named file was not listed: the loader looks for itself.
  const ropelens::FoundFiles named = ropelens::find_model_files(dir.file("without/config.json"));
  CHECK_FALSE(named.folders_with_weights_index);
  CHECK_FALSE(ropelens::listed_without_weights_index(named, dir.file("without/config.json")));
}
