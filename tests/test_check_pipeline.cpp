// The check pipeline as a library: ordered streaming on worker threads, rendering on the workers.
#include <unistd.h>

#include <filesystem>
#include <stdexcept>

#include <catch2/catch.hpp>

#include "ropelens/check/check.hpp"
#include "support.hpp"

namespace fs = std::filesystem;
using namespace ropelens;
using ropelens::test::read_file;
using ropelens::test::source_path;
using ropelens::test::write_file;

namespace {

// 40 model folders (more than a batch per worker), all copies of Qwen3-8B.
std::string make_scan_directory() {
  const fs::path root = fs::temp_directory_path() / ("ropelens-pipeline-" + std::to_string(::getpid()));
  fs::remove_all(root);
  const std::string config = read_file(source_path("testdata/configs/qwen/qwen3-8b.json"));
  for (int i = 0; i < 40; ++i) write_file((root / ("m" + std::to_string(i)) / "config.json").string(), config);
  return root.string();
}

}  // namespace

TEST_CASE("streamed files arrive in sorted order with their rendered parts and counts", "[pipeline]") {
  const std::string root = make_scan_directory();
  CheckOptions options;
  options.target_tokens = 131072;
  std::vector<std::string> paths;
  CheckCounts counts = check_paths_streaming(
      {root}, options, [](const FileResult& file) { return file.path + "\n"; },
      [&](RenderedFile&& file) {
        CHECK(file.part == file.path + "\n");
        CHECK(file.counts.errors == 1);  // CTX201
        paths.push_back(file.path);
      });
  CHECK(paths.size() == 40);
  CHECK(std::is_sorted(paths.begin(), paths.end()));
  CHECK(counts.files == 40);
  CHECK(counts.errors == 40);
  CHECK(counts.warnings == 40);  // CTX202
  fs::remove_all(root);
}

TEST_CASE("a renderer that throws fails its file, not the scan", "[pipeline]") {
  const std::string root = make_scan_directory();
  CheckOptions options;
  int seen = 0;
  CheckCounts counts = check_paths_streaming(
      {root}, options, [](const FileResult&) -> std::string { throw std::runtime_error("boom"); },
      [&](RenderedFile&& file) {
        ++seen;
        REQUIRE(file.error);
        CHECK(*file.error == file.path + ": internal error while rendering: boom");
      });
  CHECK(seen == 40);
  CHECK(counts.unreadable_files == 40);
  fs::remove_all(root);
}
