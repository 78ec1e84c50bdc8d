// Scans of a real repository: what a directory scan leaves out, config.json files that are no model's,
// unreadable files in machine output, and SARIF that validates against the official 2.1.0 schema.
#include <filesystem>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "ropelens/input/git.hpp"
#include "safetensors_writer.hpp"
#include "support.hpp"

using Catch::Matchers::Contains;
using nlohmann::json;
using ropelens::test::kQwen3;
using ropelens::test::read_file;
using ropelens::test::run_cli_in;
using ropelens::test::source_path;
using ropelens::test::TempDir;
using ropelens::test::write_file;
using ropelens::test::write_safetensors;
namespace fs = std::filesystem;

namespace {

std::vector<std::string> paths_of(const json& check_output) {
  std::vector<std::string> paths;
  for (const auto& file : check_output["files"]) paths.push_back(file["path"].get<std::string>());
  return paths;
}

// Runs the official schema over a SARIF log with format checks on; "" when valid.
std::string sarif_schema_errors(const std::string& log) {
  TempDir dir;
  write_file(dir.file("log.sarif"), log);
  auto r = ropelens::test::run_program({ROPELENS_TEST_PYTHON, source_path("tests/scripts/validate_sarif.py"),
                                        source_path("testdata/sarif/sarif-schema-2.1.0.json"), dir.file("log.sarif")});
  return r.exit_code == 0 ? "" : "exit " + std::to_string(r.exit_code) + ": " + r.err + r.out;
}

}  // namespace

TEST_CASE("a scan reports none of node_modules, .venv and an app's config.json", "[cli][scan]") {
  TempDir dir;
  write_file(dir.file("node_modules/x/config.json"), read_file(source_path(kQwen3)));
  write_file(dir.file(".venv/config.json"), read_file(source_path(kQwen3)));
  write_file(dir.file("app/config.json"), R"({"port": 8080})");
  write_file(dir.file("models/qwen3/config.json"), read_file(source_path(kQwen3)));
  auto r = run_cli_in(dir.path(), "check . --format json");
  INFO(r.err);
  CHECK(r.exit_code == 0);
  const json out = json::parse(r.out);
  CHECK(paths_of(out) == std::vector<std::string>{"models/qwen3/config.json"});
  CHECK(out["summary"]["skipped_files"] == 1);
  auto text = run_cli_in(dir.path(), "check .");
  CHECK_THAT(text.out, Catch::EndsWith("in 1 file; 1 config.json file skipped (not model configs)\n"));

  // Only the app's config: nothing to check is still a clean run, and says so.
  fs::remove_all(dir.file("models"));
  auto only_app = run_cli_in(dir.path(), "check . --format json");
  CHECK(only_app.exit_code == 0);
  CHECK(json::parse(only_app.out)["summary"]["skipped_files"] == 1);
}

TEST_CASE("naming a config.json that is no model's is an error that says why", "[cli][scan]") {
  TempDir dir;
  write_file(dir.file("app/config.json"), R"({"port": 8080})");
  auto named = run_cli_in(dir.path(), "check app/config.json");
  CHECK(named.exit_code == 2);
  CHECK_THAT(named.err, Catch::StartsWith("ropelens: error: app/config.json: not a model config: it sets none of "
                                          "model_type, architectures, hidden_size"));
  CHECK(run_cli_in(dir.path(), "check app").exit_code == 2);  // a folder holding it names it too
  CHECK(run_cli_in(dir.path(), "inspect app/config.json").exit_code == 2);
  // pre-commit names every changed config.json: --force-exclude lets it pass over them.
  CHECK(run_cli_in(dir.path(), "check --force-exclude app/config.json").exit_code == 0);
}

TEST_CASE("exclude globs from the command line and .ropelens.json, and .gitignore", "[cli][scan]") {
  TempDir dir;
  for (const char* path : {"models/a/config.json", "models/old/config.json", "vendor/config.json", "build/config.json"})
    write_file(dir.file(path), read_file(source_path(kQwen3)));
  auto scan = [&](const std::string& args) {
    return paths_of(json::parse(run_cli_in(dir.path(), "check . --format json " + args).out));
  };
  CHECK(scan("") == std::vector<std::string>{"models/a/config.json", "models/old/config.json", "vendor/config.json"});
  CHECK(scan("--exclude vendor --exclude models/old") == std::vector<std::string>{"models/a/config.json"});

  write_file(dir.file(".ropelens.json"), R"({"extend_exclude": ["vendor"]})");
  CHECK(scan("") == std::vector<std::string>{"models/a/config.json", "models/old/config.json"});
  write_file(dir.file(".ropelens.json"), R"({"exclude": ["models/old"]})");  // replaces the defaults
  CHECK(scan("") == std::vector<std::string>{"build/config.json", "models/a/config.json", "vendor/config.json"});
  write_file(dir.file(".ropelens.json"), R"({"exclude": "vendor"})");
  auto bad = run_cli_in(dir.path(), "check .");
  CHECK(bad.exit_code == 2);
  CHECK_THAT(bad.err, Catch::Contains(".ropelens.json: /exclude must be a list of globs"));
  fs::remove(dir.file(".ropelens.json"));

  ropelens::run_git(dir.path(), {"init", "-q"}, "test", 1u << 20);
  write_file(dir.file(".gitignore"), "models/old/\n");
  CHECK(scan("") == std::vector<std::string>{"models/a/config.json", "vendor/config.json"});
  // --force-exclude applies the exclusions to named files as well.
  auto forced = run_cli_in(
      dir.path(), "check --force-exclude --exclude vendor vendor/config.json models/a/config.json --format json");
  CHECK(paths_of(json::parse(forced.out)) == std::vector<std::string>{"models/a/config.json"});
}

TEST_CASE("paths are shown relative to the working directory", "[cli][scan]") {
  TempDir dir;
  write_file(dir.file("m/config.json"), read_file(source_path(kQwen3)));
  auto r = run_cli_in(dir.path(), "check " + dir.file("m") + "/../m --format json");
  CHECK(paths_of(json::parse(r.out)) == std::vector<std::string>{"m/config.json"});
}

TEST_CASE("a file that cannot be read is in the JSON and SARIF output, not only on stderr", "[cli][scan]") {
  TempDir dir;
  write_file(dir.file("good/config.json"), read_file(source_path(kQwen3)));
  write_file(dir.file("broken/config.json"), "{\"rope_theta\": ");
  auto json_run = run_cli_in(dir.path(), "check good broken --format json");
  CHECK(json_run.exit_code == 2);
  const json out = json::parse(json_run.out);
  CHECK(out["files"][0]["path"] == "broken/config.json");
  CHECK(out["files"][0]["error"].get<std::string>().rfind("broken/config.json: not valid JSON", 0) == 0);
  CHECK(out["summary"]["unreadable_files"] == 1);

  auto sarif_run = run_cli_in(dir.path(), "check good broken --format sarif");
  CHECK(sarif_run.exit_code == 2);
  const json invocation = json::parse(sarif_run.out)["runs"][0]["invocations"][0];
  CHECK(invocation["executionSuccessful"] == false);
  const json& note = invocation["toolExecutionNotifications"][0];
  CHECK(note["level"] == "error");
  CHECK(note["message"]["text"].get<std::string>().rfind("broken/config.json: not valid JSON", 0) == 0);
  CHECK(note["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "broken/config.json");
  CHECK(sarif_schema_errors(sarif_run.out) == "");
}

TEST_CASE("SARIF for a folder named 'my model #1 100%' validates against the official schema", "[cli][scan][sarif]") {
  TempDir dir;
  write_file(dir.file("my model #1 100%/qwen3/config.json"), read_file(source_path(kQwen3)));
  write_file(dir.file("my model #1 100%/ünïcode/config.json"), read_file(source_path(kQwen3)));
  auto r = run_cli_in(dir.path(), "check 'my model #1 100%' --target 131072 --format sarif");
  CHECK(r.exit_code == 1);
  CHECK(sarif_schema_errors(r.out) == "");
  const json run = json::parse(r.out)["runs"][0];
  const json& location = run["results"][0]["locations"][0]["physicalLocation"];
  CHECK(location["artifactLocation"]["uri"] == "my%20model%20%231%20100%25/qwen3/config.json");
  CHECK(location["artifactLocation"]["uriBaseId"] == "%SRCROOT%");
  CHECK(location["region"]["startLine"] == 14);
  CHECK(run["results"].back()["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] ==
        "my%20model%20%231%20100%25/%C3%BCn%C3%AFcode/config.json");
  CHECK(run["originalUriBaseIds"]["%SRCROOT%"]["uri"].get<std::string>().rfind("file:///", 0) == 0);

  // Every result has a startLine, also those about a key the file lacks, stdin, GGUF files and paths elsewhere.
  auto many =
      run_cli_in(dir.path(), "check " + source_path("testdata/rules") + " - --format sarif --exit-zero --select ALL",
                 read_file(source_path(kQwen3)));
  CHECK(sarif_schema_errors(many.out) == "");
  bool gguf_offset = false, stdin_uri = false;
  const json many_log = json::parse(many.out);
  for (const auto& result : many_log["runs"][0]["results"]) {
    const json& physical = result["locations"][0]["physicalLocation"];
    CHECK(physical["region"].contains("startLine"));
    gguf_offset = gguf_offset || physical["region"].contains("byteOffset");
    stdin_uri = stdin_uri || physical["artifactLocation"]["uri"] == "file:///dev/stdin";
  }
  CHECK(gguf_offset);
  CHECK(stdin_uri);
}

TEST_CASE("diff SARIF validates against the official schema", "[cli][diff][sarif]") {
  TempDir dir;
  write_file(dir.file("old/config.json"), read_file(source_path(kQwen3)));
  json edited = json::parse(read_file(source_path(kQwen3)));
  edited["rope_theta"] = 5e6;
  write_file(dir.file("my model #1 100%/config.json"), edited.dump(2));
  auto r = run_cli_in(dir.path(), "diff old 'my model #1 100%' --target 131072 --format sarif");
  CHECK(r.exit_code == 1);
  CHECK(sarif_schema_errors(r.out) == "");
  CHECK_FALSE(json::parse(r.out)["runs"][0]["results"].empty());
}

TEST_CASE("a scan counts the weights of the folders that hold a safetensors index or file, as a check of each does",
          "[cli][scan]") {
  TempDir dir;
  const std::string qwen3 = read_file(source_path(kQwen3));
  write_file(dir.file("models/with-weights/config.json"), qwen3);
  write_file(dir.file("models/with-weights/model.safetensors.index.json"),
             R"({"metadata": {"total_size": 16381470720}, "weight_map": {}})");
  write_file(dir.file("models/single-file/config.json"), qwen3);
  write_safetensors(dir.file("models/single-file/model.safetensors"),
                    {{"model.embed_tokens.weight", "BF16", {1572864, 4096}, {}, ""}});  // 12 GiB, sparse
  write_file(dir.file("models/no-weights/config.json"), qwen3);
  // At 32768 tokens the bf16 KV cache is 4.5 GiB: with the 15.3 GiB of weights it exceeds 18 GiB; with the single
  // file's 12 GiB, 16.5 GiB fit vLLM's 0.92 × 18 GiB = 16.56 GiB but not SGLang's 0.78 × 18 GiB = 14.04 GiB (an
  // error naming SGLang only); alone it fits, and the unknown weights are a warning.
  const std::string options = " --target 32768 --memory 18GiB --select CTX210 --format json";
  const json scan = json::parse(run_cli_in(dir.path(), "check models" + options).out);
  REQUIRE(paths_of(scan) == std::vector<std::string>{"models/no-weights/config.json", "models/single-file/config.json",
                                                     "models/with-weights/config.json"});
  REQUIRE(scan["files"][0]["diagnostics"].size() == 1);
  CHECK(scan["files"][0]["diagnostics"][0]["severity"] == "warning");
  CHECK_THAT(scan["files"][0]["diagnostics"][0]["message"].get<std::string>(),
             Contains("the weights' size is unknown"));
  REQUIRE(scan["files"][1]["diagnostics"].size() == 1);
  CHECK(scan["files"][1]["diagnostics"][0]["severity"] == "error");
  CHECK_THAT(scan["files"][1]["diagnostics"][0]["message"].get<std::string>(),
             Contains("exceed what SGLang may use of the memory budget 18.00 GiB: SGLang 16.50 GiB (weights 12.00 GiB "
                      "+ KV cache 4.50 GiB bf16) > 14.04 GiB") &&
                 !Contains("vLLM"));
  const json& single = scan["files"][1]["diagnostics"][0]["facts"];
  CHECK(single["needed_bytes"].get<std::uint64_t>() - single["kv_cache_bytes"].get<std::uint64_t>() == 12ull << 30);
  REQUIRE(scan["files"][2]["diagnostics"].size() == 1);
  CHECK(scan["files"][2]["diagnostics"][0]["severity"] == "error");
  const json& facts = scan["files"][2]["diagnostics"][0]["facts"];
  CHECK(facts["needed_bytes"].get<std::uint64_t>() - facts["kv_cache_bytes"].get<std::uint64_t>() == 16381470720);
  for (std::size_t i = 0; i < 3; ++i) {
    const std::string folder = paths_of(scan)[i].substr(0, paths_of(scan)[i].rfind('/'));
    const json named = json::parse(run_cli_in(dir.path(), "check " + folder + options).out);
    CHECK(named["files"][0]["diagnostics"] == scan["files"][i]["diagnostics"]);
  }
}

TEST_CASE("a scan on 1, 2 or 7 threads (--jobs) prints the same bytes in the same order", "[cli][scan]") {
  TempDir dir;
  const std::vector<std::string> configs = {kQwen3, "testdata/configs/llama/llama-3.2-3b.json",
                                            "testdata/configs/synthetic/bad-values.json"};
  for (int i = 0; i < 100; ++i)  // 100 folders: seven batches of 16 files, so every thread has work
    write_file(dir.file("m" + std::to_string(i) + "/config.json"), read_file(source_path(configs[i % 3])));
  write_file(dir.file("m7/config.json"), "{ not json");  // an unreadable file among them keeps its place
  const auto one = run_cli_in(dir.path(), "check . --format json --exit-zero -j 1");
  REQUIRE(one.exit_code == 2);
  CHECK(paths_of(json::parse(one.out)).size() == 100);
  for (const char* jobs : {"--jobs 2", "-j 7", ""}) {
    INFO(jobs);
    const auto many = run_cli_in(dir.path(), std::string("check . --format json --exit-zero ") + jobs);
    CHECK(many.exit_code == 2);
    CHECK(many.out == one.out);
    CHECK(many.err == one.err);
  }
}

TEST_CASE("jobs (-j/--jobs) take a whole number from 1 to 1024, and anything else is a usage error", "[cli][scan]") {
  for (const char* jobs : {"0", "abc", "-3", "1.5", "1025"}) {
    INFO(jobs);
    const auto r = run_cli_in(source_path("."), std::string("check ") + kQwen3 + " --jobs=" + jobs);
    CHECK(r.exit_code == 2);
    CHECK(r.out.empty());
    CHECK_THAT(r.err, Contains(std::string("--jobs: '") + jobs +
                               "' is not a number of threads: expected a whole number from 1 to 1024"));
  }
  const auto missing = run_cli_in(source_path("."), "check " + kQwen3 + " --jobs=");
  CHECK(missing.exit_code == 2);
  CHECK_THAT(missing.err, Contains("--jobs: 1 required N missing"));
  CHECK(run_cli_in(source_path("."), "check " + kQwen3 + " -j 1024").exit_code == 0);
}
