// The trained length end to end: check, fit and suggest read one bound (a known base, --trained-length, or
// "trained_length" in .ropelens.json), so the three never disagree.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "support.hpp"

using nlohmann::json;
using ropelens::test::read_file;
using ropelens::test::run_cli;
using ropelens::test::run_cli_in;
using ropelens::test::source_path;
using ropelens::test::TempDir;
using ropelens::test::write_file;

namespace {

// Qwen3-8B with only max_position_embeddings raised from 40960 to 131072.
const std::string kRaised = "testdata/rules/CTX211/bad-qwen3-8b-raised-to-131072/config.json";

// The trained length each command works with, at 131072 tokens.
struct Lengths {
  std::int64_t check = 0;  // CTX201's trained_tokens (0: no CTX201)
  std::int64_t fit = 0;    // fit's RoPE cap
  std::int64_t suggest = 0;
};

Lengths lengths(const std::string& directory, const std::string& config, const std::string& flags) {
  Lengths out;
  const json checked =
      json::parse(run_cli_in(directory, "check " + config + " --target 131072 --format json " + flags).out);
  for (const auto& d : checked["files"][0]["diagnostics"])
    if (d["code"] == "CTX201") out.check = d["facts"]["trained_tokens"].get<std::int64_t>();
  const json fit = json::parse(
      run_cli_in(directory, "fit " + config + " --memory 80GiB --weights 16GiB --format json " + flags).out);
  out.fit = fit["rope_tokens"].get<std::int64_t>();
  const json suggested =
      json::parse(run_cli_in(directory, "suggest " + config + " --target 131072 --format json " + flags).out);
  if (suggested.contains("original_tokens")) out.suggest = suggested["original_tokens"].get<std::int64_t>();
  return out;
}

}  // namespace

TEST_CASE("check, fit and suggest take the same trained length for a raised Qwen3-8B", "[cli][trained]") {
  const auto r = run_cli("check " + kRaised + " --target 131072");
  CHECK(r.exit_code == 1);
  CHECK(r.out.find("CTX201 error") != std::string::npos);
  CHECK(r.out.find("Qwen3-8B was trained at 40960 tokens") != std::string::npos);

  const Lengths known = lengths(source_path("."), kRaised, "");
  CHECK(known.check == 40960);
  CHECK(known.fit == 40960);
  CHECK(known.suggest == 40960);

  // Stated by the user, it is the user's length in all three: nothing out of range, nothing to suggest.
  const auto stated = run_cli("check " + kRaised + " --target 131072 --trained-length 131072");
  CHECK(stated.exit_code == 0);
  const Lengths told = lengths(source_path("."), kRaised, "--trained-length 131072");
  CHECK(told.check == 0);
  CHECK(told.fit == 131072);
  CHECK(told.suggest == 0);  // every pair already in range: no suggestion, no trained length shown
  // --original is suggest's older name for it.
  CHECK(json::parse(
            run_cli("suggest " + kRaised + " --target 262144 --original 65536 --format json").out)["original_tokens"] ==
        65536);
}

TEST_CASE(".ropelens.json trained_length gives matching configs their trained length", "[cli][trained]") {
  TempDir dir;
  write_file(dir.file("models/qwen/config.json"), read_file(source_path(kRaised)));
  CHECK(run_cli_in(dir.path(), "check models --target 131072").exit_code == 1);

  write_file(dir.file(".ropelens.json"), R"({"trained_length": {"models/qwen/*": 131072}})");
  CHECK(run_cli_in(dir.path(), "check models --target 131072").exit_code == 0);
  const Lengths told = lengths(dir.path(), "models/qwen/config.json", "");
  CHECK(told.check == 0);
  CHECK(told.fit == 131072);
  CHECK(told.suggest == 0);
  // From a subdirectory the glob still reads relative to the folder holding .ropelens.json.
  CHECK(run_cli_in(dir.file("models"), "check qwen/config.json --target 131072").exit_code == 0);
  // The flag wins over the file.
  CHECK(run_cli_in(dir.path(), "check models --target 131072 --trained-length 40960").exit_code == 1);

  // A glob that matches nothing leaves the evidence in charge.
  write_file(dir.file(".ropelens.json"), R"({"trained_length": {"other/*": 131072}})");
  CHECK(run_cli_in(dir.path(), "check models --target 131072").exit_code == 1);

  write_file(dir.file(".ropelens.json"), R"({"trained_length": {"models/qwen/*": "lots"}})");
  const auto bad = run_cli_in(dir.path(), "check models --target 131072");
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("/trained_length/models/qwen/*") != std::string::npos);
  write_file(dir.file(".ropelens.json"), R"({"trained_length": 131072})");
  const auto not_a_map = run_cli_in(dir.path(), "check models --target 131072");
  CHECK(not_a_map.exit_code == 2);
  CHECK(not_a_map.err.find("must map path globs to token counts") != std::string::npos);
}

TEST_CASE("check, suggest and report say where the trained length comes from in one sentence", "[cli][trained]") {
  TempDir dir;
  const auto said = [&](const std::string& flags, const std::string& directory, const std::string& config) {
    const auto check = run_cli_in(directory, "check " + config + " --target 262144 " + flags);
    const json suggested =
        json::parse(run_cli_in(directory, "suggest " + config + " --target 262144 --format json " + flags).out);
    const std::string sentence = suggested["trained_sentence"];
    CHECK(check.out.find("\n  " + sentence + "\n") != std::string::npos);
    run_cli_in(directory,
               "report " + config + " --target 262144 -q --exit-zero -o " + dir.file("r.html") + " " + flags);
    std::string escaped = sentence;  // the page escapes quotes
    for (auto at = escaped.find('"'); at != std::string::npos; at = escaped.find('"', at))
      escaped.replace(at, 1, "&quot;");
    CHECK(read_file(dir.file("r.html")).find("<li>" + escaped + "</li>") != std::string::npos);
    return sentence;
  };
  const std::string here = source_path(".");
  CHECK(said("", here, kRaised) ==
        "trained length 40960 (the known base Qwen3-8B (40960 declared, 32768 native; "
        "https://huggingface.co/Qwen/Qwen3-8B))");
  CHECK(said("--trained-length 65536", here, kRaised) == "trained length 65536 (--trained-length)");
  write_file(dir.file("models/qwen/config.json"), read_file(source_path(kRaised)));
  write_file(dir.file(".ropelens.json"), R"({"trained_length": {"models/qwen/*": 65536}})");
  CHECK(said("", dir.path(), "models/qwen/config.json") ==
        "trained length 65536 (.ropelens.json trained_length \"models/qwen/*\")");
}
