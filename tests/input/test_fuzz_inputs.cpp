// Inputs under testdata/fuzz/ (the seeds, each target's grown corpus and any crash or hang a campaign found, see
// docs/fuzzing.md) through the command line: each must end with exit 0, 1 or 2, never a signal, and a refusal is
// one line on stderr. Every input also replays in-process through every fuzz target with its invariants
// (the fuzz-replay/<target> tests); here the process is spawned per command, so the crash regressions go through
// in full and each corpus is sampled.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "support.hpp"

using namespace ropelens::test;
namespace fs = std::filesystem;

namespace {

constexpr std::size_t kSampledPerCorpus = 3;

// Every crash regression, and the first inputs (by name, so the sample is the same every run) of each corpus.
std::vector<std::string> fuzz_inputs() {
  std::vector<std::string> files;
  for (const auto& corpus : fs::directory_iterator(source_path("testdata/fuzz"))) {
    if (!corpus.is_directory()) continue;
    std::vector<std::string> inputs;
    for (const auto& entry : fs::recursive_directory_iterator(corpus.path()))
      if (entry.is_regular_file()) inputs.push_back(entry.path().string());
    std::sort(inputs.begin(), inputs.end());
    if (corpus.path().filename() != "regressions" && inputs.size() > kSampledPerCorpus)
      inputs.resize(kSampledPerCorpus);
    files.insert(files.end(), inputs.begin(), inputs.end());
  }
  return files;
}

}  // namespace

TEST_CASE("fuzz inputs in testdata/ go through check, inspect, table and suggest on the command line without a crash") {
  const std::vector<std::string> files = fuzz_inputs();
  REQUIRE(files.size() >= 10);
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
