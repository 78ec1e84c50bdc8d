// Baselines end to end: record today's findings, then report only what is new, and what got fixed.
#include <filesystem>
#include <set>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "support.hpp"

using nlohmann::json;
using ropelens::test::read_file;
using ropelens::test::run_cli_in;
using ropelens::test::source_path;
using ropelens::test::TempDir;
using ropelens::test::write_file;
namespace fs = std::filesystem;

namespace {

// Three model folders, each with findings at 131072 tokens.
void write_models(const TempDir& dir) {
  write_file(dir.file("models/qwen3/config.json"), read_file(source_path("testdata/configs/qwen/qwen3-8b.json")));
  write_file(dir.file("models/llama/config.json"), read_file(source_path("testdata/configs/llama/llama-3.2-3b.json")));
  write_file(dir.file("models/gemma/config.json"),
             read_file(source_path("testdata/configs/gemma/gemma-4-31b-it.json")));
}

std::string with_rope_theta(const std::string& config_path, double theta) {
  json config = json::parse(read_file(config_path));
  config["rope_theta"] = theta;
  return config.dump(2);
}

}  // namespace

TEST_CASE("check --write-baseline then --baseline: nothing to report until a new problem appears", "[cli][baseline]") {
  TempDir dir;
  write_models(dir);
  const std::string check = "check models --target 131072 ";
  auto before = run_cli_in(dir.path(), check + "--format json");
  REQUIRE(before.exit_code == 1);  // there are findings to record

  auto written = run_cli_in(dir.path(), check + "--write-baseline b.json");
  CHECK(written.exit_code == 0);
  const json baseline = json::parse(read_file(dir.file("b.json")));
  CHECK(baseline["schema_version"] == 1);
  CHECK(baseline["findings"].size() == json::parse(before.out)["summary"]["errors"].get<std::size_t>() +
                                           json::parse(before.out)["summary"]["warnings"].get<std::size_t>() +
                                           json::parse(before.out)["summary"]["infos"].get<std::size_t>());
  CHECK(baseline["findings"][0]["path"].get<std::string>().rfind("models/", 0) == 0);  // relative to b.json

  auto quiet = run_cli_in(dir.path(), check + "--baseline b.json --format json");
  CHECK(quiet.exit_code == 0);
  const json none = json::parse(quiet.out);
  CHECK(none["summary"]["errors"] == 0);
  CHECK(none["summary"]["warnings"] == 0);
  CHECK(none["summary"]["infos"] == 0);
  CHECK(none["summary"]["baseline"]["suppressed"] == baseline["findings"].size());
  CHECK(none["summary"]["baseline"]["fixed"].empty());

  // A new problem in one file is reported alone: the same rule on other pairs is new, the old entry fixed.
  write_file(dir.file("models/qwen3/config.json"), with_rope_theta(dir.file("models/qwen3/config.json"), 5e6));
  auto one = run_cli_in(dir.path(), check + "--baseline b.json --format json");
  CHECK(one.exit_code == 1);
  const json out = json::parse(one.out);
  for (const auto& file : out["files"]) {
    INFO(file["path"]);
    if (file["path"] != "models/qwen3/config.json") CHECK(file["diagnostics"].empty());
  }
  bool ctx201 = false;
  for (const auto& d : out["files"][2]["diagnostics"]) ctx201 = ctx201 || d["code"] == "CTX201";
  CHECK(out["files"][2]["path"] == "models/qwen3/config.json");
  CHECK(ctx201);
  CHECK_FALSE(out["summary"]["baseline"]["fixed"].empty());

  auto text = run_cli_in(dir.path(), check + "--baseline b.json");
  CHECK_THAT(text.out, Catch::Contains("fixed since the baseline:\n  models/qwen3/config.json: CTX201 at "));
}

TEST_CASE("a baseline matches on facts, not wording, and works from another folder", "[cli][baseline]") {
  TempDir dir;
  write_models(dir);  // at 131072 tokens llama-3.1 has only CTX205, an opt-in rule: --select ALL
  REQUIRE(run_cli_in(dir.path(), "check models --target 131072 --select ALL --write-baseline ci/b.json").exit_code ==
          0);
  json baseline = json::parse(read_file(dir.file("ci/b.json")));
  CHECK(baseline["findings"][0]["path"].get<std::string>().rfind("../models/", 0) == 0);
  for (auto& entry : baseline["findings"]) entry["message"] = "reworded";
  write_file(dir.file("ci/b.json"), baseline.dump(2));
  CHECK(run_cli_in(dir.path(), "check models --target 131072 --select ALL --baseline ci/b.json").exit_code == 0);
  CHECK(run_cli_in(dir.file("models"), "check . --target 131072 --select ALL --baseline ../ci/b.json").exit_code == 0);
  // At another target the facts differ: the findings are new.
  CHECK(run_cli_in(dir.path(), "check models --target 262144 --select ALL --baseline ci/b.json").exit_code == 1);

  fs::remove_all(dir.file("models/llama"));
  auto gone =
      run_cli_in(dir.path(), "check models/qwen3 --target 131072 --select ALL --baseline ci/b.json --format json");
  const json fixed = json::parse(gone.out)["summary"]["baseline"]["fixed"];
  REQUIRE_FALSE(fixed.empty());
  for (const auto& entry : fixed) CHECK(entry["path"] == "models/llama/config.json");  // gemma was not checked
}

TEST_CASE("baseline files are checked, SARIF marks every result against the baseline", "[cli][baseline]") {
  TempDir dir;
  write_models(dir);
  write_file(dir.file("bad.json"), R"({"findings": []})");
  auto bad = run_cli_in(dir.path(), "check models --baseline bad.json");
  CHECK(bad.exit_code == 2);
  CHECK_THAT(bad.err, Catch::Contains("bad.json: /schema_version: expected 1"));
  CHECK(run_cli_in(dir.path(), "check models --baseline missing.json").exit_code == 2);
  CHECK(run_cli_in(dir.path(), "check models --baseline a.json --write-baseline b.json").exit_code == 2);

  // Qwen3-8B's two default findings at 131072 go into the baseline; the opt-in rules then find something new in
  // every model, Qwen3-8B included.
  REQUIRE(run_cli_in(dir.path(), "check models/qwen3 --target 131072 --write-baseline b.json").exit_code == 0);
  const json log = json::parse(
      run_cli_in(dir.path(), "check models --target 131072 --select ALL --baseline b.json --format sarif").out);
  const json& run = log["runs"][0];
  std::set<std::string> new_findings;
  for (const auto& result : run["results"]) {
    CHECK(result["baselineState"] == "new");
    CHECK(result["partialFingerprints"].contains("ropelens/v1"));
    new_findings.insert(result["ruleId"].get<std::string>() + " " +
                        result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].get<std::string>());
  }
  CHECK(new_findings == std::set<std::string>{"CTX203 models/gemma/config.json", "CTX205 models/llama/config.json",
                                              "CTX205 models/qwen3/config.json"});
  CHECK(run["properties"]["baseline"]["suppressed"] == 2);
  CHECK(run["properties"]["baseline"]["fixed"].empty());
}

TEST_CASE("a baseline records trained lengths: a raise with RoPE unchanged is audited at the length it saw",
          "[cli][baseline][trained]") {
  TempDir dir;
  // Qwen3-8B with a vocabulary of its own: no known base matches it, so only the baseline's record is evidence.
  json config = json::parse(read_file(source_path("testdata/configs/qwen/qwen3-8b.json")));
  config["vocab_size"] = 123456;
  write_file(dir.file("models/tuned/config.json"), config.dump(2));
  CHECK(run_cli_in(dir.path(), "check models --write-baseline b.json").exit_code == 0);
  const json baseline = json::parse(read_file(dir.file("b.json")));
  REQUIRE(baseline["trained_lengths"].size() == 1);
  CHECK(baseline["trained_lengths"][0]["path"] == "models/tuned/config.json");
  CHECK(baseline["trained_lengths"][0]["declared"] == 40960);
  CHECK(baseline["trained_lengths"][0]["trained_tokens"] == 40960);
  CHECK(baseline["trained_lengths"][0]["rope"] == "default rotary_dim 128 rope_theta 1000000 factor 1 original 0");

  config["max_position_embeddings"] = 131072;
  write_file(dir.file("models/tuned/config.json"), config.dump(2));
  CHECK(run_cli_in(dir.path(), "check models").exit_code == 0);  // no evidence: the raised length is taken
  const auto raised = run_cli_in(dir.path(), "check models --baseline b.json");
  CHECK(raised.exit_code == 1);
  CHECK_THAT(raised.out, Catch::Contains("CTX201 error"));
  CHECK_THAT(raised.out, Catch::Contains("CTX211 warning"));
  CHECK_THAT(raised.out, Catch::Contains("the earlier version models/tuned/config.json in the baseline b.json "
                                         "(max_position_embeddings 40960)"));
  // A RoPE change is a new training story: the record no longer applies.
  config["rope_scaling"] = {{"rope_type", "yarn"}, {"factor", 4.0}, {"original_max_position_embeddings", 32768}};
  write_file(dir.file("models/tuned/config.json"), config.dump(2));
  const auto rescaled = run_cli_in(dir.path(), "check models --baseline b.json --format json");
  const json rescaled_log = json::parse(rescaled.out);
  for (const auto& d : rescaled_log["files"][0]["diagnostics"]) CHECK(d["code"] != "CTX211");

  write_file(dir.file("bad.json"), R"({"schema_version": 1, "findings": [], "trained_lengths": [{"path": "x"}]})");
  const auto bad = run_cli_in(dir.path(), "check models --baseline bad.json");
  CHECK(bad.exit_code == 2);
  CHECK_THAT(bad.err, Catch::Contains("/trained_lengths/0/declared: expected a positive whole number of tokens"));
}
