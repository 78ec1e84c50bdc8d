// `ropelens diff` end to end, in scratch git repositories: what an edit changed, what it introduced and fixed,
// and the exit code a pull request gets.
#include <algorithm>
#include <filesystem>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "ropelens/input/git.hpp"
#include "support.hpp"

using nlohmann::json;
using ropelens::test::kQwen3;
using ropelens::test::read_file;
using ropelens::test::run_cli;
using ropelens::test::run_cli_in;
using ropelens::test::source_path;
using ropelens::test::TempDir;
using ropelens::test::write_file;
namespace fs = std::filesystem;

namespace {

// A git repository in a fresh folder with Qwen3-8B's config.json committed.
class ScratchRepo : public ropelens::test::ScratchGit {
 public:
  ScratchRepo() {
    write("config.json", read_file(source_path(kQwen3)));
    commit("Qwen3-8B as published");
  }
  // config.json with `pointer` set to `value`.
  void edit(const std::string& pointer, const json& value) const {
    json config = json::parse(read_file(file("config.json")));
    config[json::json_pointer(pointer)] = value;
    write("config.json", config.dump(2));
  }
};

// Two commits: Qwen3-8B at models/qwen/config.json, then its max_position_embeddings raised to 131072.
void commit_raise_under_models(const ScratchRepo& repo) {
  fs::create_directories(repo.file("models/qwen"));
  repo.write("models/qwen/config.json", read_file(source_path(kQwen3)));
  repo.commit("Qwen3-8B under models/qwen");
  json config = json::parse(read_file(repo.file("models/qwen/config.json")));
  config["max_position_embeddings"] = 131072;
  repo.write("models/qwen/config.json", config.dump(2));
  repo.commit("raise the declared length");
}

const json kYarn = {{"rope_type", "yarn"}, {"factor", 4.0}, {"original_max_position_embeddings", 32768}};

std::vector<std::string> codes(const json& findings) {
  std::vector<std::string> out;
  for (const auto& d : findings) out.push_back(d["code"].get<std::string>());
  return out;
}

bool has(const std::vector<std::string>& items, const std::string& item) {
  return std::find(items.begin(), items.end(), item) != items.end();
}

const json* field(const json& model, const std::string& name) {
  for (const auto& f : model["fields"])
    if (f["field"] == name) return &f;
  return nullptr;
}

const json& engine(const json& model, const std::string& name) {
  for (const auto& e : model["engines"])
    if (e["engine"] == name) return e;
  FAIL("no engine " << name);
  return model;
}

}  // namespace

TEST_CASE("diff --git HEAD: adding YaRN names the fields, the pairs, the engine lengths, and fixes CTX201",
          "[cli][diff]") {
  ScratchRepo repo;
  repo.edit("/rope_scaling", kYarn);
  repo.edit("/max_position_embeddings", 131072);
  auto r = run_cli_in(repo.path(), "diff --git HEAD --target 131072 --format json");
  INFO(r.err);
  CHECK(r.exit_code == 0);  // fixes findings, introduces none at warning or above
  const json out = json::parse(r.out);
  CHECK(out["schema_version"] == 1);
  REQUIRE(out["models"].size() == 1);
  const json& model = out["models"][0];
  CHECK(model["path"] == "config.json");
  CHECK(model["old_path"] == "HEAD:config.json");
  CHECK(model["status"] == "modified");

  REQUIRE(field(model, "rope_type"));
  CHECK((*field(model, "rope_type"))["old"] == "default");
  CHECK((*field(model, "rope_type"))["new"] == "yarn");
  CHECK((*field(model, "rope_type"))["new_from"] == "/rope_scaling/rope_type");
  REQUIRE(field(model, "factor"));
  CHECK((*field(model, "factor"))["old"].is_null());
  CHECK((*field(model, "factor"))["new"] == 4.0);
  REQUIRE(field(model, "max_position_embeddings"));
  CHECK((*field(model, "max_position_embeddings"))["new"] == 131072);

  const json& setup = model["setups"][0];
  CHECK(setup["name"] == "all");
  CHECK(setup["changed_pairs"]["count"] == 40);  // YaRN interpolates the pairs past its ramp
  CHECK(setup["changed_pairs"]["range"] == "24–63");
  CHECK(setup["changed_pairs"]["largest"]["ratio"] == Approx(0.25));
  CHECK(setup["attention_factor"]["old"] == 1.0);
  CHECK(setup["attention_factor"]["new"] == Approx(0.1 * std::log(4.0) + 1.0));
  CHECK(setup["out_of_range_pairs"]["old"].size() == 23);  // pairs 41–63, as check's CTX201 says
  CHECK(setup["out_of_range_pairs"]["new"].empty());

  CHECK(engine(model, "vllm")["old_limit_tokens"] == 40960);
  CHECK(engine(model, "vllm")["new_limit_tokens"] == 131072);
  CHECK(engine(model, "llama.cpp")["new_limit_tokens"] == 131072);

  CHECK(has(codes(model["findings"]["fixed"]), "CTX201"));
  for (const auto& d : model["findings"]["new"]) CHECK(d["severity"] == "info");
}

TEST_CASE("diff --git HEAD: a rope_theta change that moves pairs out of range introduces CTX201 and exits 1",
          "[cli][diff]") {
  ScratchRepo repo;
  repo.edit("/rope_theta", 5e6);
  auto r = run_cli_in(repo.path(), "diff --git HEAD --target 131072 --format json");
  INFO(r.err);
  CHECK(r.exit_code == 1);
  const json model = json::parse(r.out)["models"][0];
  REQUIRE(model["fields"].size() == 1);
  CHECK(model["fields"][0]["field"] == "rope_theta");
  CHECK(model["fields"][0]["old"] == 1e6);
  CHECK(model["fields"][0]["new"] == 5e6);
  CHECK(model["setups"][0]["changed_pairs"]["range"] == "1–63");
  CHECK(model["setups"][0]["out_of_range_pairs"]["old"].size() == 23);
  CHECK(model["setups"][0]["out_of_range_pairs"]["new"].size() == 27);  // 37–63
  for (const auto& e : model["engines"]) CHECK(e["changed"] == false);
  // The same rule on other pairs is a new finding, and the old one is fixed.
  CHECK(has(codes(model["findings"]["new"]), "CTX201"));
  CHECK(has(codes(model["findings"]["fixed"]), "CTX201"));

  CHECK(run_cli_in(repo.path(), "diff --git HEAD --target 131072 --exit-zero").exit_code == 0);
  CHECK(run_cli_in(repo.path(), "diff --git HEAD --target 131072 --fail-on error").exit_code == 1);
}

TEST_CASE("diff --git: without a change nothing is reported, the target comes from .ropelens.json", "[cli][diff]") {
  ScratchRepo repo;
  auto clean = run_cli_in(repo.path(), "diff --git HEAD --format json");
  CHECK(clean.exit_code == 0);
  CHECK(json::parse(clean.out)["models"].empty());

  repo.write(".ropelens.json", R"({"target": "128k"})");
  repo.edit("/rope_theta", 5e6);
  const json model = json::parse(run_cli_in(repo.path(), "diff --git HEAD --format json").out)["models"][0];
  CHECK(model["old_target"] == 131072);
  CHECK(model["new_target"] == 131072);
}

TEST_CASE("diff --git: added, deleted and renamed files, and two revisions without a checkout", "[cli][diff]") {
  ScratchRepo repo;
  repo.write("models/b/config.json", read_file(source_path("testdata/configs/llama/llama-3.2-3b.json")));
  repo.commit("add llama");
  fs::remove(repo.file("config.json"));
  repo.write("models/c/config.json", read_file(source_path(kQwen3)));  // untracked: still a change
  repo.git({"mv", "models/b", "models/renamed"});
  auto r = run_cli_in(repo.path(), "diff --git HEAD --format json");
  INFO(r.out << r.err);
  const json models = json::parse(r.out)["models"];
  REQUIRE(models.size() == 3);
  CHECK(models[0]["path"] == "config.json");
  CHECK(models[0]["status"] == "deleted");
  CHECK(models[0]["findings"]["new"].empty());
  CHECK(models[1]["path"] == "models/c/config.json");
  CHECK(models[1]["status"] == "added");
  CHECK(models[1]["findings"]["fixed"].empty());
  CHECK(models[2]["path"] == "models/renamed/config.json");
  CHECK(models[2]["status"] == "renamed");
  CHECK(models[2]["old_path"] == "HEAD:models/b/config.json");
  CHECK(models[2]["findings"]["new"].empty());  // a move introduces nothing
  CHECK(r.exit_code == 0);  // only the added file could fail it, and Qwen3-8B is clean at its own length

  repo.commit("move things");
  fs::remove_all(repo.file("models"));  // the work tree no longer matters for two revisions
  auto revisions = run_cli_in(repo.path(), "diff --git HEAD~1..HEAD models --format json");
  INFO(revisions.err);
  const json between = json::parse(revisions.out);
  CHECK(between["old"] == "HEAD~1");
  CHECK(between["new"] == "HEAD");
  REQUIRE(between["models"].size() == 2);  // the PATH leaves the root config.json out
  CHECK(between["models"][0]["new_path"] == "HEAD:models/c/config.json");
}

TEST_CASE("diff --git skips config.json files that are no model's and honours --exclude", "[cli][diff]") {
  ScratchRepo repo;
  repo.write("app/config.json", R"({"port": 8080})");
  repo.write("vendor/m/config.json", read_file(source_path(kQwen3)));
  repo.write("node_modules/x/config.json", read_file(source_path(kQwen3)));
  auto r = run_cli_in(repo.path(), "diff --git HEAD --exclude vendor --format json");
  INFO(r.err);
  const json out = json::parse(r.out);
  CHECK(out["models"].empty());
  CHECK(out["summary"]["skipped_files"] == 1);
  CHECK(r.exit_code == 0);
}

TEST_CASE("diff usage and input errors exit 2", "[cli][diff]") {
  ScratchRepo repo;
  auto unknown = run_cli_in(repo.path(), "diff --git origin/mian");
  CHECK(unknown.exit_code == 2);
  CHECK_THAT(unknown.err, Catch::Contains("origin/mian: unknown git revision"));
  CHECK(run_cli_in(repo.path(), "diff config.json").exit_code == 2);
  CHECK(run_cli_in(repo.path(), "diff --git HEAD...main").exit_code == 2);

  TempDir outside;  // not a git work tree
  CHECK(run_cli_in(outside.path(), "diff --git HEAD").exit_code == 2);

  repo.write("config.json", "{\"rope_theta\": ");
  auto broken = run_cli_in(repo.path(), "diff --git HEAD --format json");
  CHECK(broken.exit_code == 2);
  CHECK(json::parse(broken.out)["models"][0]["error"].get<std::string>().rfind("config.json: not valid JSON", 0) == 0);

  repo.write("app.json", R"({"port": 8080})");
  auto not_model = run_cli_in(repo.path(), "diff app.json app.json");
  CHECK(not_model.exit_code == 2);
  CHECK_THAT(not_model.err, Catch::Contains("app.json: not a model config"));
}

TEST_CASE("diff formats: markdown for a comment, SARIF and annotations with the new findings only", "[cli][diff]") {
  ScratchRepo repo;
  repo.edit("/rope_theta", 5e6);
  const std::string base = "diff --git HEAD --target 131072 --format ";

  auto markdown = run_cli_in(repo.path(), base + "markdown");
  CHECK_THAT(markdown.out, Catch::StartsWith("### ropelens diff: `HEAD` → the working tree\n"));
  CHECK_THAT(markdown.out, Catch::Contains("| `rope_theta` | 1000000 | 5000000 |"));
  CHECK_THAT(markdown.out, Catch::Contains("**New findings**"));

  auto sarif = run_cli_in(repo.path(), base + "sarif");
  CHECK(sarif.exit_code == 1);
  const json log = json::parse(sarif.out);
  const json& results = log["runs"][0]["results"];
  const json text = json::parse(run_cli_in(repo.path(), base + "json").out);
  CHECK(results.size() == text["models"][0]["findings"]["new"].size());
  for (const auto& result : results) {
    CHECK(result["baselineState"] == "new");
    CHECK(result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "config.json");
    CHECK(result["partialFingerprints"]["ropelens/v1"].get<std::string>().size() == 16);
  }

  auto github = run_cli_in(repo.path(), base + "github");
  CHECK_THAT(github.out, Catch::StartsWith("::error file=config.json,line=14,col=30,title=CTX201 unseen-angles::"));
  CHECK(std::count(github.out.begin(), github.out.end(), '\n') == static_cast<long>(results.size()));
}

TEST_CASE("diff -o writes the document to FILE, -q prints nothing and answers by the exit code", "[cli][diff]") {
  TempDir dir;
  const std::string pair = "'" + source_path("testdata/configs/qwen/qwen2.5-coder-32b-instruct.json") + "' '" +
                           source_path("testdata/configs/qwen/qwen2.5-coder-32b-instruct-historical-yarn.json") + "'";
  const auto printed = run_cli_in(dir.path(), "diff " + pair + " --format markdown");
  REQUIRE(!printed.out.empty());

  const auto written = run_cli_in(dir.path(), "diff -o diff.md " + pair + " --format markdown");
  CHECK(written.out.empty());
  CHECK(written.exit_code == printed.exit_code);
  CHECK(ropelens::test::read_file(dir.file("diff.md")) == printed.out);
  CHECK(run_cli_in(dir.path(), "diff --output - " + pair + " --format markdown").out == printed.out);

  const auto quiet = run_cli("diff -q " + pair);
  CHECK(quiet.out.empty());
  CHECK(quiet.err.empty());
  CHECK(quiet.exit_code == printed.exit_code);
  CHECK(run_cli("diff -q " + pair + " --exit-zero").exit_code == 0);
  const std::string same = "'" + source_path(kQwen3) + "' '" + source_path(kQwen3) + "'";
  CHECK(run_cli("diff -q " + same).exit_code == 0);
  CHECK(run_cli("diff -q " + same).out.empty());

  const auto unwritable = run_cli("diff -o " + dir.file("no/such/folder/diff.md") + " " + pair);
  CHECK(unwritable.exit_code == 2);
  CHECK_THAT(unwritable.err, Catch::Contains("diff.md: cannot write"));
}

TEST_CASE("diff --git HEAD: max_position_embeddings raised with RoPE unchanged keeps CTX201 and adds CTX211",
          "[cli][diff][trained]") {
  ScratchRepo repo;
  repo.edit("/max_position_embeddings", 131072);  // 40960 → 131072, nothing else
  auto r = run_cli_in(repo.path(), "diff --git HEAD --target 131072 --format json");
  INFO(r.err);
  CHECK(r.exit_code == 1);
  const json model = json::parse(r.out)["models"][0];
  CHECK_FALSE(has(codes(model["findings"]["fixed"]), "CTX201"));
  CHECK(has(codes(model["findings"]["unchanged"]), "CTX201"));
  CHECK(codes(model["findings"]["new"]) == std::vector<std::string>{"CTX211"});
  // The same 23 pairs (41–63) out of range on both sides: the raise trained nothing.
  CHECK(model["setups"][0]["out_of_range_pairs"]["old"].size() == 23);
  CHECK(model["setups"][0]["out_of_range_pairs"]["new"] == model["setups"][0]["out_of_range_pairs"]["old"]);
  const json& raised = model["findings"]["new"][0];
  CHECK(raised["facts"]["declared"] == 131072);
  CHECK(raised["facts"]["trained_tokens"] == 40960);
  CHECK(raised["message"].get<std::string>().find("3.2×") != std::string::npos);
  CHECK(run_cli_in(repo.path(), "diff --git HEAD --target 131072 --trained-length 131072").exit_code == 0);
}

TEST_CASE("diff: Llama-3.1-8B raised from 131072 to 524288 keeps CTX201 at 524288 and exits 1",
          "[cli][diff][trained]") {
  TempDir dir;
  const std::string llama = "testdata/configs/llama/llama-3.1-8b-instruct-bnb8bit-finetune.json";
  json config = json::parse(read_file(source_path(llama)));
  config["max_position_embeddings"] = 524288;
  write_file(dir.file("new.json"), config.dump(2));
  auto r = run_cli("diff " + source_path(llama) + " " + dir.file("new.json") + " --target 524288 --format json");
  INFO(r.err);
  CHECK(r.exit_code == 1);
  const json model = json::parse(r.out)["models"][0];
  CHECK(model["findings"]["fixed"].empty());
  CHECK(has(codes(model["findings"]["unchanged"]), "CTX201"));
  CHECK(has(codes(model["findings"]["new"]), "CTX211"));
}

TEST_CASE("diff: a model no known base matches takes its trained length from the old side", "[cli][diff][trained]") {
  TempDir dir;
  json config = json::parse(read_file(source_path(kQwen3)));
  config["hidden_size"] = 4000;  // no known base has this shape
  config["max_position_embeddings"] = 32768;
  write_file(dir.file("old.json"), config.dump(2));
  config["max_position_embeddings"] = 131072;
  write_file(dir.file("new.json"), config.dump(2));

  // check alone has no evidence: the raised config passes at 131072.
  CHECK(run_cli("check " + dir.file("new.json") + " --target 131072").exit_code == 0);
  auto r = run_cli("diff " + dir.file("old.json") + " " + dir.file("new.json") + " --target 131072 --format json");
  INFO(r.err);
  CHECK(r.exit_code == 1);
  const json model = json::parse(r.out)["models"][0];
  CHECK(model["findings"]["fixed"].empty());
  CHECK(has(codes(model["findings"]["unchanged"]), "CTX201"));
  REQUIRE(codes(model["findings"]["new"]) == std::vector<std::string>{"CTX211"});
  const json& raised = model["findings"]["new"][0];
  CHECK(raised["facts"]["source"] == "earlier_version");
  CHECK(raised["facts"]["trained_tokens"] == 32768);
  CHECK(raised["message"].get<std::string>().find("4×") != std::string::npos);
}

TEST_CASE("diff --git from a subdirectory names files relative to the repository root in SARIF and annotations",
          "[cli][diff][trained]") {
  const ScratchRepo repo;  // config.json at the top, untouched below
  commit_raise_under_models(repo);

  const std::string below = repo.file("models");
  auto sarif = run_cli_in(below, "diff --git HEAD~1..HEAD --target 131072 --format sarif");
  INFO(sarif.err);
  CHECK(sarif.exit_code == 1);
  const json log = json::parse(sarif.out);
  const json& results = log["runs"][0]["results"];
  REQUIRE_FALSE(results.empty());
  for (const auto& result : results)
    CHECK(result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "models/qwen/config.json");
  const std::string root = log["runs"][0]["originalUriBaseIds"]["%SRCROOT%"]["uri"].get<std::string>();
  CHECK(root.ends_with("/"));
  CHECK_FALSE(root.ends_with("/models/"));

  auto github = run_cli_in(below, "diff --git HEAD~1..HEAD --target 131072 --format github");
  CHECK(github.exit_code == 1);
  CHECK(github.out.find("file=models/qwen/config.json,") != std::string::npos);
  CHECK(github.out.find("file=qwen/") == std::string::npos);
}

TEST_CASE("diff --git between revisions takes .ropelens.json's trained_length for the file's path on both sides",
          "[cli][diff][trained]") {
  const ScratchRepo repo;
  commit_raise_under_models(repo);
  const std::string diff = "diff --git HEAD~1..HEAD --target 131072 --format json";
  CHECK(run_cli_in(repo.path(), diff).exit_code == 1);

  // The weights were trained further, and the project says so: neither revision's file is out of range.
  repo.write(".ropelens.json", R"({"trained_length": {"models/qwen/*": 131072}})");
  auto r = run_cli_in(repo.file("models"), diff);
  INFO(r.err);
  CHECK(r.exit_code == 0);
  const json model = json::parse(r.out)["models"][0];
  CHECK(model["findings"]["new"].empty());
  // Only the old declared length's warning goes; no trained-length finding on either side.
  CHECK(codes(model["findings"]["fixed"]) == std::vector<std::string>{"CTX202"});
  CHECK_FALSE(has(codes(model["findings"]["unchanged"]), "CTX201"));
  // A glob for another folder leaves the evidence in charge.
  repo.write(".ropelens.json", R"({"trained_length": {"other/*": 131072}})");
  CHECK(run_cli_in(repo.path(), diff).exit_code == 1);
}
