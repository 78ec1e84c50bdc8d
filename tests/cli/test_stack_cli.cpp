// --stack and "stack" in .ropelens.json end to end: the engine rules, views and diff cover only the stack.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "support.hpp"

using Catch::Matchers::Contains;
using nlohmann::json;
using ropelens::test::run_cli;
using ropelens::test::run_cli_in;
using ropelens::test::source_path;
using ropelens::test::TempDir;
using ropelens::test::write_file;

namespace {

const std::string kQwenVl = "testdata/configs/qwen/qwen-vl-chat-int4.json";

std::vector<std::string> codes_of(const std::string& check_json) {
  const json log = json::parse(check_json);
  std::vector<std::string> codes;
  for (const auto& d : log["files"][0]["diagnostics"]) codes.push_back(d["code"]);
  return codes;
}

bool has(const std::vector<std::string>& codes, const std::string& code) {
  return std::find(codes.begin(), codes.end(), code) != codes.end();
}

}  // namespace

TEST_CASE("check --stack vllm on Qwen-VL-Chat has no ENG301, without a stack it fires", "[cli][stack]") {
  const std::string path = source_path(kQwenVl);
  CHECK(has(codes_of(run_cli("check " + path + " --format json").out), "ENG301"));
  CHECK_FALSE(has(codes_of(run_cli("check " + path + " --stack vllm --format json").out), "ENG301"));
  // Two engines of the stack that disagree (vLLM 2048, llama.cpp 8192) still fire, naming only them.
  const auto both = run_cli("check " + path + " --stack vllm,llama.cpp -q");
  CHECK_THAT(both.out, Contains("ENG301"));
  CHECK_THAT(both.out, Contains("2048 in vLLM ≤ 0.21"));
  CHECK(both.out.find("SGLang;") == std::string::npos);
  // The list option never swallows the path that follows it.
  CHECK(run_cli("check --stack vllm " + path + " -q").exit_code == 1);  // CFG011 remains
}

TEST_CASE("a stack in .ropelens.json drops ENG301 too, a typo in the key or a version is an error", "[cli][stack]") {
  TempDir dir;
  const std::string path = source_path(kQwenVl);
  write_file(dir.file(".ropelens.json"), R"({"stack": ["vllm"]})");
  CHECK_FALSE(has(codes_of(run_cli_in(dir.path(), "check " + path + " --format json").out), "ENG301"));
  // The flag wins over the file.
  CHECK(has(codes_of(run_cli_in(dir.path(), "check " + path + " --stack vllm,llama.cpp --format json").out), "ENG301"));

  write_file(dir.file(".ropelens.json"), R"({"stak": ["vllm"]})");
  const auto typo = run_cli_in(dir.path(), "check " + path);
  CHECK(typo.exit_code == 2);
  CHECK_THAT(typo.err, Contains("/stak: unknown setting (did you mean 'stack'?)"));

  write_file(dir.file(".ropelens.json"), R"({"stack": ["vllm@0.6.x"]})");
  const auto version = run_cli_in(dir.path(), "check " + path);
  CHECK(version.exit_code == 2);
  CHECK_THAT(version.err, Contains("/stack/0: vllm version '0.6.x' is not modelled"));
  CHECK_THAT(version.err, Contains("expected main, before-41277, before-56446, or a release such as 0.8.5"));

  // A release in the file is placed like one on the command line.
  write_file(dir.file(".ropelens.json"), R"({"stack": ["vllm@0.25.1"]})");
  const auto release = run_cli_in(dir.path(), "check " + path + " --format json");
  CHECK(release.exit_code == 1);
  CHECK(release.err.empty());
  CHECK_FALSE(has(codes_of(release.out), "ENG301"));
}

TEST_CASE("a stack pins the release you run: vllm@0.8.5, sglang@0.4.6, llama.cpp@b5000", "[cli][stack]") {
  const std::string path = source_path("testdata/configs/qwen/qwen3-8b.json");
  for (const std::string stack :
       {"vllm@0.8.5", "sglang@0.4.6", "llama.cpp@b5000", "vllm@0.22.0", "transformers@4.57.1"}) {
    INFO(stack);
    const auto run = run_cli("check " + path + " --target 131072 --stack " + stack);
    CHECK((run.exit_code == 0 || run.exit_code == 1));
  }
  // vLLM 0.8.5 runs the behaviour before PR #41277: the view is labelled by its releases.
  const json views = json::parse(run_cli("table " + path + " --engine all --stack vllm@0.8.5 --format json").out);
  std::vector<std::string> labels;
  for (const auto& view : views["views"]) labels.push_back(view["label"]);
  CHECK(labels == std::vector<std::string>{"transformers v5", "vLLM ≤ 0.21"});
  // Releases ropelens cannot place exactly are read anyway, with a warning saying how.
  const auto old = run_cli("check " + path + " --stack sglang@0.4.6 -q");
  CHECK_THAT(old.err, Contains("warning: sglang@0.4.6 is older than 0.5.16, the oldest release ropelens has checked"));
  CHECK_THAT(old.err, Contains("read as sglang@main"));
  const auto newer = run_cli("check " + path + " --stack vllm@0.31.0 -q");
  CHECK_THAT(newer.err, Contains("warning: vllm@0.31.0 is newer than 0.29, the newest release ropelens places; read "
                                 "as vllm@main"));
  CHECK(run_cli("check " + path + " --stack vllm@0.22.0 -q").err.empty());
  // A malformed version is a usage error listing what the engine takes.
  const auto malformed = run_cli("check " + path + " --stack llama.cpp@5000");
  CHECK(malformed.exit_code == 2);
  CHECK_THAT(malformed.err, Contains("--stack: llama.cpp version '5000' is not modelled; expected main, or a "
                                     "release such as b5000"));
}

TEST_CASE("suggest verifies its edits under the stack, and its check command carries it", "[cli][stack]") {
  const std::string path = source_path("testdata/configs/qwen/qwen3-8b.json");
  const json all = json::parse(run_cli("suggest " + path + " --target 262144 --format json").out);
  const json vllm = json::parse(run_cli("suggest " + path + " --target 262144 --stack vllm@main --format json").out);
  // Without a stack every engine limits the edited config; with one only its engines do.
  CHECK(all["suggestions"][0]["engine_limits_tokens"].size() > vllm["suggestions"][0]["engine_limits_tokens"].size());
  CHECK(vllm["suggestions"][0]["engine_limits_tokens"].contains("vLLM main (unreleased)"));
  const std::string command = vllm["suggestions"][0]["check_command"];
  CHECK_THAT(command, Contains(" --stack 'vllm@main'"));
  CHECK(run_cli(command.substr(std::string("ropelens ").size())).exit_code ==
        (vllm["suggestions"][0]["verified"] ? 0 : 1));
}

TEST_CASE("a stack narrows table --engine, diff's engine lengths and rules lists the versions", "[cli][stack]") {
  const std::string path = source_path(kQwenVl);
  const json views = json::parse(run_cli("table " + path + " --engine all --stack vllm@main --format json").out);
  std::vector<std::string> labels;
  for (const auto& view : views["views"]) labels.push_back(view["label"]);
  CHECK(labels == std::vector<std::string>{"transformers v5", "vLLM main (unreleased)"});
  const auto refused = run_cli("table " + path + " --engine sglang --stack vllm");
  CHECK(refused.exit_code == 2);
  CHECK_THAT(refused.err, Contains("--engine sglang is not in the stack (vllm)"));

  const json diff = json::parse(run_cli("diff " + path + " " + path + " --stack llama.cpp --format json").out);
  CHECK(diff["models"][0]["engines"].size() == 2);  // transformers v5 as the config's meaning, and llama.cpp

  const auto rules = run_cli("rules").out;
  CHECK_THAT(rules, Contains("vllm@before-56446"));
  CHECK_THAT(rules, Contains("transformers@4.4x"));
  // The version table names the change and the first release that has it.
  // Piped, rules fits 80 columns: the change goes on the line below its row.
  CHECK_THAT(rules, Contains("vLLM 0.22–0.29           0.22.0\n    PR #41277"));
  CHECK_THAT(rules, Contains("vLLM main (unreleased)   unreleased\n    PR #56446"));
}

TEST_CASE("ROPE101 names what each engine of the stack serves, as ENG301 does", "[cli][stack]") {
  const std::string recipe = source_path("testdata/rules/ROPE101/bad-qwen3-yarn-recipe/config.json");
  // vLLM main and SGLang both serve max_position_embeddings 40960 and neither runs the factor as max/original (only
  // transformers 4.48-4.5x did): no ENG301 and no ROPE101 on that stack.
  const auto current =
      json::parse(run_cli("check " + recipe + " --select ROPE101,ENG301 --stack vllm@main,sglang --format json").out);
  CHECK(current["files"][0]["diagnostics"].empty());
  // Every engine: ROPE101's lengths are ENG301's, view by view (vLLM ≤ 0.21 serves original × factor = 131072).
  const auto all = json::parse(run_cli("check " + recipe + " --select ROPE101,ENG301 --format json").out);
  json served, compared;
  for (const auto& d : all["files"][0]["diagnostics"]) {
    if (d["code"] == "ROPE101") served = d["facts"]["served_tokens"];
    if (d["code"] == "ENG301")
      for (const auto& [label, length] : d["facts"]["lengths"].items()) compared[label] = length["limit_tokens"];
  }
  CHECK(served["vLLM ≤ 0.21"] == 131072);
  CHECK(served == compared);
}
