// Every input under testdata/fuzz/ (the seeds, each target's grown corpus and any crash or hang a campaign found,
// see docs/fuzzing.md) stays a test: each goes through every user-facing path the whole-path fuzz targets cover
// and must end with exit 0, 1 or 2, never a signal, and a refusal is one line on stderr.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "support.hpp"

using namespace ropelens::test;
namespace fs = std::filesystem;

namespace {

std::vector<std::string> fuzz_inputs() {
  std::vector<std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(source_path("testdata/fuzz")))
    if (entry.is_regular_file()) files.push_back(entry.path().string());
  return files;
}

}  // namespace

TEST_CASE("every fuzz input in testdata/ goes through check, inspect, table and suggest without a crash") {
  const std::vector<std::string> files = fuzz_inputs();
  REQUIRE(files.size() >= 20);
  const std::vector<std::vector<std::string>> commands = {{"check", "--format", "text"},
                                                          {"check", "--format", "github"},
                                                          {"check", "--format", "json"},
                                                          {"check", "--format", "sarif"},
                                                          {"inspect"},
                                                          {"table"},
                                                          {"suggest", "--target", "131072"}};
  for (const auto& file : files) {
    for (const auto& command : commands) {
      std::vector<std::string> argv = {binary()};
      argv.insert(argv.end(), command.begin(), command.end());
      argv.push_back(file);
      const RunResult r = run_program(argv);
      INFO(file << ": " << command.front() << "\n" << r.err);
      CHECK((r.exit_code == 0 || r.exit_code == 1 || r.exit_code == 2));
      if (r.exit_code == 2) CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    }
  }
}
