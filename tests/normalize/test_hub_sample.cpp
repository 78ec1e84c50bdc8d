// The hub sample (testdata/hub/MANIFEST.tsv): real configs of the most-used models, read without a crash, each
// with known semantics, and none with a misspelled-key finding.
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "ropelens/check/check.hpp"
#include "ropelens/normalize/normalize.hpp"
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
  REQUIRE(files.size() >= 165);  // 41 of them models released in 2026
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

namespace {

// Every config of the held-out corpus (testdata/configs, a copy of the shared one) and of the hub sample.
std::vector<std::string> every_real_config() {
  std::vector<std::string> files = hub_sample();
  std::ifstream manifest(source_path("testdata/configs/MANIFEST.tsv"));
  std::string line;
  std::getline(manifest, line);  // the header
  while (std::getline(manifest, line))
    if (!line.empty()) files.push_back("testdata/configs/" + line.substr(0, line.find('\t')));
  return files;
}

}  // namespace

TEST_CASE("Held-out and hub configs: none is read best effort without a warning-level CFG013") {
  const auto files = every_real_config();
  REQUIRE(files.size() >= 170);
  std::vector<std::string> quiet;
  for (const auto& file : files) {
    INFO(file);
    LoadedModel loaded = load_model(source_path(file));
    bool says_best_effort = false;
    for (const auto& note : loaded.model.notes) says_best_effort |= note.find("best effort") != std::string::npos;
    for (const auto& issue : loaded.model.issues)
      says_best_effort |= std::holds_alternative<BestEffortReading>(issue.detail);
    if (!says_best_effort) continue;
    bool warned = false;
    for (const auto& d : check_model(std::move(loaded), CheckOptions{}).diagnostics)
      warned |= d.code == "CFG013" && d.severity >= Severity::warning;
    if (!warned) quiet.push_back(file);
  }
  CHECK(quiet == std::vector<std::string>{});
}

TEST_CASE("Types transformers ships natively are not called remote code") {
  for (const char* type : {"mimo_v2_flash", "kimi_linear", "qwen2_5_omni_text", "laguna", "granite_swa"}) {
    INFO(type);
    const Model model = normalize_json(
        {{"model_type", type}, {"hidden_size", 2048}, {"num_attention_heads", 16}, {"num_hidden_layers", 4}}, "x.json");
    CHECK(model.transformers_native);
    for (const auto& note : model.notes) CHECK(note.find("remote code") == std::string::npos);
  }
}
