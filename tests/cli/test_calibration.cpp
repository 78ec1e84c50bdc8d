// Calibration: the default `check` of every published config (testdata/configs/MANIFEST.tsv) at its declared
// length and at 4× it, held as snapshots. What the default rule set says about official models is reviewed here:
// a design a model ships on purpose must not read as a warning.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "ropelens/audit/audit.hpp"
#include "ropelens/load/model_loader.hpp"
#include "ropelens/rules/rule.hpp"
#include "ropelens/rules/rule_docs.hpp"
#include "support.hpp"

using ropelens::test::compare_snapshot;
using ropelens::test::run_cli;
using ropelens::test::source_path;

namespace {

// The published configs, in MANIFEST.tsv order (synthetic configs are not listed there).
std::vector<std::string> published_configs() {
  std::ifstream manifest(source_path("testdata/configs/MANIFEST.tsv"));
  std::vector<std::string> paths;
  std::string line;
  std::getline(manifest, line);  // the header
  while (std::getline(manifest, line))
    if (!line.empty()) paths.push_back("testdata/configs/" + line.substr(0, line.find('\t')));
  return paths;
}

std::int64_t declared_length(const std::string& path) {
  const auto loaded = ropelens::load_model(source_path(path));
  return ropelens::resolve_target(std::nullopt, loaded.model);
}

// "path:line:col: CODE severity [name] …" → {CODE, severity}; empty for any other line.
std::pair<std::string, std::string> code_and_severity(const std::string& line) {
  std::istringstream words(line);
  std::string where, code, severity;
  words >> where >> code >> severity;
  if (where.empty() || where.back() != ':') return {};
  return {code, severity};
}

}  // namespace

TEST_CASE("calibration: default check of every published config at its declared length") {
  const auto configs = published_configs();
  REQUIRE(configs.size() == 52);
  std::string arguments = "check";
  for (const auto& path : configs) arguments += " " + path;
  const auto run = run_cli(arguments);
  CHECK(run.err.empty());
  CHECK(compare_snapshot("testdata/snapshots/calibration/declared.txt", run.out) == "");

  std::istringstream lines(run.out);
  int findings = 0;
  for (std::string line; std::getline(lines, line);) {
    const auto [code, severity] = code_and_severity(line);
    if (code.empty()) continue;
    INFO(line);
    ++findings;
    CHECK(code != "CTX205");  // a fact about nearly every RoPE model: opt-in
    if (severity == "warning" || severity == "error")
      CHECK(std::string(ropelens::rule_doc(code)).find("Real failure: ") != std::string::npos);
  }
  CHECK(findings > 0);  // the snapshot is of findings, not of an empty run
}

TEST_CASE("calibration: default check of every published config at 4x its declared length") {
  std::string all;
  for (const auto& path : published_configs()) {
    const auto run = run_cli("check " + path + " --target " + std::to_string(4 * declared_length(path)));
    INFO(path);
    CHECK(run.err.empty());
    CHECK((run.exit_code == 0 || run.exit_code == 1));
    all += run.out;
  }
  CHECK(compare_snapshot("testdata/snapshots/calibration/4x.txt", all) == "");
  CHECK(all.find("CTX201 error") != std::string::npos);  // 4× past a RoPE model's length leaves angles unseen
}
