// `ropelens check` end to end: exit codes, rule selection, severities, project settings, every output
// format and scans of many files.
#include <unistd.h>

#include <algorithm>
#include <filesystem>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "support.hpp"

using nlohmann::json;
using ropelens::test::compare_snapshot;
using ropelens::test::kQwen3;
using ropelens::test::read_file;
using ropelens::test::run_cli;
using ropelens::test::run_cli_in;
using ropelens::test::source_path;
using ropelens::test::TempDir;
using ropelens::test::write_file;
namespace fs = std::filesystem;

namespace {

// The codes of the findings in a check --format json document, in output order.
std::vector<std::string> codes(const std::string& json_output) {
  std::vector<std::string> out;
  const json document = json::parse(json_output);
  for (const auto& file : document["files"])
    for (const auto& d : file["diagnostics"]) out.push_back(d["code"].get<std::string>());
  return out;
}

// SARIF names the working directory (originalUriBaseIds); snapshots hold a placeholder for it.
std::string without_source_root(std::string output) {
  const std::string root = "\"file://" + source_path("");
  for (auto at = output.find(root); at != std::string::npos; at = output.find(root, at))
    output.replace(at, root.size(), "\"file:///SOURCE_ROOT/");
  return output;
}

}  // namespace

TEST_CASE("check exit codes: 0 clean, 1 findings at --fail-on, 2 for input and usage errors", "[cli][check]") {
  CHECK(run_cli("check " + kQwen3 + " --target 131072").exit_code == 1);  // CTX201 error
  CHECK(run_cli("check " + kQwen3 + " --target 131072 --exit-zero").exit_code == 0);
  CHECK(run_cli("check " + kQwen3 + " --target 8192").exit_code == 0);  // nothing in the default set
  CHECK(run_cli("check " + kQwen3 + " --target 8192 --fail-on info --select ALL").exit_code == 1);
  CHECK(run_cli("check " + kQwen3 + " --target 131072 --fail-on error --select CTX202").exit_code == 0);

  TempDir dir;
  write_file(dir.file("broken/config.json"), "{\"rope_theta\": 1e6,");
  auto broken = run_cli("check " + dir.file("broken") + " --exit-zero");
  CHECK(broken.exit_code == 2);  // --exit-zero does not hide unreadable files
  CHECK(broken.err == "ropelens: error: " + dir.file("broken/config.json") +
                          ": not valid JSON at byte 20: syntax error while parsing object key - unexpected end of "
                          "input; expected string literal\n");
  CHECK(run_cli("check " + kQwen3 + " --format xml").exit_code == 2);

  auto piped = run_cli("check - --target 131072", read_file(source_path(kQwen3)));
  CHECK(piped.exit_code == 1);
  CHECK_THAT(piped.out, Catch::StartsWith("<stdin>:14:30: CTX201 error [unseen-angles]"));
}

TEST_CASE("check selects and ignores rules by code, name and prefix", "[cli][check]") {
  const std::string base = "check " + kQwen3 + " --target 131072 --format json";
  CHECK(codes(run_cli(base).out) == std::vector<std::string>{"CTX201", "CTX202"});  // CTX205 is opt-in
  CHECK(codes(run_cli(base + " --select ALL").out) == std::vector<std::string>{"CTX201", "CTX202", "CTX205"});
  CHECK(codes(run_cli(base + " --select CTX201").out) == std::vector<std::string>{"CTX201"});
  CHECK(codes(run_cli(base + " --select unseen-angles").out) == std::vector<std::string>{"CTX201"});
  CHECK(codes(run_cli(base + " --select CTX20 --ignore CTX205").out) == std::vector<std::string>{"CTX201", "CTX202"});
  CHECK(codes(run_cli(base + " --ignore CTX").out).empty());
}

TEST_CASE("check severity overrides change the level and the exit code", "[cli][check]") {
  auto r = run_cli("check " + kQwen3 + " --target 131072 --select CTX201 --severity CTX201=info --format json");
  CHECK(r.exit_code == 0);
  CHECK(json::parse(r.out)["files"][0]["diagnostics"][0]["severity"] == "info");
}

TEST_CASE(".ropelens.json sets the default target and severities for its tree", "[cli][check]") {
  TempDir dir;
  write_file(dir.file("config.json"), read_file(source_path(kQwen3)));
  write_file(dir.file(".ropelens.json"),
             R"({"target": 131072, "severity": {"CTX201": "warning"}, "ignore": ["CTX205"]})");
  auto r = run_cli_in(dir.path(), "check config.json --format json");
  const json out = json::parse(r.out);
  CHECK(out["files"][0]["target"] == 131072);
  CHECK(codes(r.out) == std::vector<std::string>{"CTX201", "CTX202"});
  CHECK(out["files"][0]["diagnostics"][0]["severity"] == "warning");
  CHECK(r.exit_code == 1);

  auto flags_win = run_cli_in(dir.path(), "check config.json --target 8192 --format json");
  CHECK(json::parse(flags_win.out)["files"][0]["target"] == 8192);

  write_file(dir.file(".ropelens.json"), R"({"target": "long"})");
  auto bad = run_cli_in(dir.path(), "check config.json");
  CHECK(bad.exit_code == 2);
  CHECK_THAT(bad.err, Catch::Contains(".ropelens.json: /target: 'long' is not a number"));
}

TEST_CASE("check snapshots: Qwen3-8B at 131072 tokens in every format", "[cli][check]") {
  for (const std::string format : {"text", "json", "sarif", "github"}) {
    INFO(format);
    auto r = run_cli("check " + kQwen3 + " --target 131072 --format " + format);
    CHECK(r.exit_code == 1);
    CHECK(compare_snapshot("testdata/snapshots/check/qwen3-8b-131072." + format, without_source_root(r.out)) == "");
  }
}

TEST_CASE("SARIF results carry the rule index and the line and column of the pointer", "[cli][check]") {
  const json sarif = json::parse(run_cli("check " + kQwen3 + " --target 131072 --format sarif").out);
  CHECK(sarif["version"] == "2.1.0");
  const json& run = sarif["runs"][0];
  const json& rules = run["tool"]["driver"]["rules"];
  const json& first = run["results"][0];
  CHECK(first["ruleId"] == "CTX201");
  CHECK(rules[first["ruleIndex"].get<std::size_t>()]["id"] == "CTX201");
  const json& location = first["locations"][0];
  CHECK(location["logicalLocations"][0]["fullyQualifiedName"] == "/max_position_embeddings");
  CHECK(location["physicalLocation"]["region"]["startLine"] == 14);  // "max_position_embeddings": 40960,
  CHECK(location["physicalLocation"]["region"]["startColumn"] == 30);
}

TEST_CASE("a scan of many files is emitted in sorted order and goes on past a bad file", "[cli][check]") {
  TempDir dir;
  const std::vector<std::string> corpus = {kQwen3, "testdata/configs/llama/llama-3.2-3b.json",
                                           "testdata/configs/gpt2/gpt2-xl.json"};
  constexpr int kModels = 40;  // more than one batch per worker thread
  for (int i = 0; i < kModels; ++i)
    write_file(dir.file("m" + std::to_string(i) + "/config.json"), read_file(source_path(corpus[i % corpus.size()])));
  write_file(dir.file("m17/config.json"), "[1, 2]");
  auto r = run_cli("check " + dir.path() + " --target 131072 --format json");
  CHECK(r.exit_code == 2);
  const json out = json::parse(r.out);
  REQUIRE(out["files"].size() == kModels);
  std::vector<std::string> paths;
  for (const auto& file : out["files"]) paths.push_back(file["path"].get<std::string>());
  CHECK(std::is_sorted(paths.begin(), paths.end()));
  CHECK(out["summary"]["unreadable_files"] == 1);
  CHECK(out["files"][9]["path"] == dir.file("m17/config.json"));  // m0 m1 m10..m17: the ninth in sorted order
  CHECK(out["files"][9]["error"] ==
        dir.file("m17/config.json") + ": top-level JSON value is array, expected an object");

  // Each file's part of the output is what checking it alone prints.
  auto alone = json::parse(run_cli("check " + dir.file("m5/config.json") + " --target 131072 --format json").out);
  const auto m5 = std::find(paths.begin(), paths.end(), dir.file("m5/config.json")) - paths.begin();
  CHECK(out["files"][static_cast<std::size_t>(m5)] == alone["files"][0]);
}

TEST_CASE("a directory scan checks GGUF files beside configs", "[cli][check]") {
  auto r = run_cli("check testdata/rules/GGUF001 --format json --exit-zero");
  const json out = json::parse(r.out);
  REQUIRE(out["files"].size() == 2);
  CHECK(out["files"][0]["path"] == "testdata/rules/GGUF001/bad-context-beyond-original-without-scaling/model.gguf");
  // Its original_context_length 32768 without scaling is the trained length: CTX201 at its 131072 too.
  REQUIRE(out["files"][0]["diagnostics"].size() == 2);
  CHECK(out["files"][0]["diagnostics"][0]["code"] == "CTX201");
  CHECK(out["files"][0]["diagnostics"][1]["code"] == "GGUF001");
  CHECK(out["files"][1]["path"] == "testdata/rules/GGUF001/ok-llama31-rope-freqs/model.gguf");
}
