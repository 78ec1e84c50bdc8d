// The hub sample (testdata/hub/MANIFEST.tsv): real configs of the most-used models, read without a crash, each
// with known semantics, and none with a misspelled-key finding.
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "ropelens/check/check.hpp"
#include "support.hpp"

using namespace ropelens;
using ropelens::test::source_path;

namespace {

// The `file` column of the manifest, as paths under the source tree.
std::vector<std::string> hub_sample() {
  std::ifstream manifest(source_path("testdata/hub/MANIFEST.tsv"));
  std::vector<std::string> files;
  std::string line;
  std::getline(manifest, line);  // the header
  while (std::getline(manifest, line))
    if (!line.empty()) files.push_back("testdata/hub/" + line.substr(0, line.find('\t')));
  return files;
}

std::vector<std::string> codes_of(const std::string& file) {
  std::vector<std::string> codes;
  for (const auto& d : check_model(load_model(source_path(file)), CheckOptions{}).diagnostics) codes.push_back(d.code);
  return codes;
}

bool has(const std::vector<std::string>& codes, const std::string& code) {
  return std::find(codes.begin(), codes.end(), code) != codes.end();
}

}  // namespace

TEST_CASE("Hub sample: every config reads with known semantics and no misspelled-key finding") {
  const auto files = hub_sample();
  REQUIRE(files.size() >= 53);
  std::vector<std::string> best_effort, misspelled;
  for (const auto& file : files) {
    INFO(file);
    std::vector<std::string> codes;
    REQUIRE_NOTHROW(codes = codes_of(file));
    if (has(codes, "CFG013")) best_effort.push_back(file);
    if (has(codes, "CFG012")) misspelled.push_back(file);
  }
  CHECK(best_effort == std::vector<std::string>{});
  CHECK(misspelled == std::vector<std::string>{});
}
