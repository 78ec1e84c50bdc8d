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
  CHECK_THAT(both.out, Contains("2048 in vLLM main (unreleased)"));
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

  write_file(dir.file(".ropelens.json"), R"({"stack": ["vllm@0.6"]})");
  const auto version = run_cli_in(dir.path(), "check " + path);
  CHECK(version.exit_code == 2);
  CHECK_THAT(version.err, Contains("/stack/0: vllm version '0.6' is not modelled"));
  CHECK_THAT(version.err, Contains("ropelens models main, before-41277, before-56446"));
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
}
