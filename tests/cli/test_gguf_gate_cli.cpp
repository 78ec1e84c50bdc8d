// GGUF files through the CI gate: `diff` and `diff --git` check a GGUF file against its config.json as `check` does
// (the config beside it on the same side, or on the other side of `diff CONFIG GGUF`), read GGUF blobs of any size
// from git, follow Git LFS pointers into the local LFS store, and flag a GGUF a config change made stale.
#include <algorithm>
#include <filesystem>
#include <regex>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "gguf_writer.hpp"
#include "support.hpp"

using nlohmann::json;
using ropelens::test::GgufWriter;
using ropelens::test::kLlama31;
using ropelens::test::kQwen3;
using ropelens::test::llama31_8b_fixture;
using ropelens::test::qwen3_8b_fixture;
using ropelens::test::read_file;
using ropelens::test::run_cli;
using ropelens::test::run_cli_in;
using ropelens::test::run_program;
using ropelens::test::ScratchGit;
using ropelens::test::source_path;
using ropelens::test::TempDir;
using ropelens::test::write_file;
namespace fs = std::filesystem;

namespace {

// The codes of a diff's models' new findings, "path CODE" each, in order.
std::vector<std::string> new_findings(const std::string& diff_json) {
  std::vector<std::string> out;
  const json report = json::parse(diff_json);
  for (const auto& model : report["models"])
    for (const auto& d : model["findings"]["new"])
      out.push_back(model["path"].get<std::string>() + " " + d["code"].get<std::string>());
  return out;
}

bool has(const std::vector<std::string>& items, const std::string& item) {
  return std::find(items.begin(), items.end(), item) != items.end();
}

// A repository holding m/config.json (Qwen3-8B), then a commit that adds `gguf` as m/model.gguf beside it.
void commit_gguf_beside_config(const ScratchGit& repo, const GgufWriter& gguf) {
  repo.write("m/config.json", read_file(source_path(kQwen3)));
  repo.commit("Qwen3-8B's config");
  gguf.write(repo.file("m/model.gguf"));
  repo.commit("its GGUF");
}

// A tensor of `bytes` zero bytes (F32), as weights a header walk must skip (no blk.N tensor: the layer-count
// check would count it as the one layer the file holds).
ropelens::test::TensorSpec zero_weights(const std::string& name, std::size_t bytes) {
  return {name, {bytes / 4}, ropelens::test::kGgmlF32, std::string(bytes, '\0'), std::nullopt};
}

bool git_lfs_installed() { return run_program({"git", "lfs", "version"}).exit_code == 0; }

// The command a one-line error says fetches the object ("… fetch it with: git lfs fetch origin HEAD --include=…").
std::vector<std::string> fetch_command_in(const std::string& error) {
  const auto at = error.find("fetch it with: ");
  if (at == std::string::npos) return {};
  std::istringstream words(error.substr(at + 15));
  std::vector<std::string> argv;
  for (std::string word; words >> word;) argv.push_back(word);
  return argv;
}

}  // namespace

TEST_CASE(
    "diff --git: a commit adding a GGUF with a changed base beside its config exits 1 with GGUF006 in every "
    "format, from the root and from a subfolder",
    "[cli][diff][gguf]") {
  ScratchGit repo;
  commit_gguf_beside_config(repo, qwen3_8b_fixture(40960, 10000.0f));
  for (const std::string folder : {"", "m"}) {
    INFO("run in '" << folder << "'");
    const std::string where = folder.empty() ? repo.path() : repo.file(folder);
    const auto text = run_cli_in(where, "diff --git HEAD~1..HEAD");
    CHECK(text.exit_code == 1);
    CHECK_THAT(text.out, Catch::Contains("m/model.gguf: added") &&
                             Catch::Contains("GGUF006 error [conversion-changed-theta] qwen3.rope.freq_base is 10000"));
    const auto as_json = run_cli_in(where, "diff --git HEAD~1..HEAD --format json");
    CHECK(as_json.exit_code == 1);
    CHECK(new_findings(as_json.out) == std::vector<std::string>{"m/model.gguf GGUF006"});
    const auto sarif = run_cli_in(where, "diff --git HEAD~1..HEAD --format sarif");
    CHECK(sarif.exit_code == 1);
    const json result = json::parse(sarif.out)["runs"][0]["results"][0];
    CHECK(result["ruleId"] == "GGUF006");
    CHECK(result["level"] == "error");
    CHECK(result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "m/model.gguf");
    const auto github = run_cli_in(where, "diff --git HEAD~1..HEAD --format github");
    CHECK(github.exit_code == 1);
    CHECK_THAT(github.out, Catch::StartsWith("::error file=m/model.gguf,title=GGUF006 conversion-changed-theta::"));
  }
  // The help names the file where it is, as a command that works from the folder it ran in.
  CHECK_THAT(run_cli_in(repo.file("m"), "diff --git HEAD~1..HEAD").out,
             Catch::Contains("help: set the key to the converter's value in place: gguf-set-metadata model.gguf "
                             "qwen3.rope.freq_base 1000000"));
  // The same GGUF faithful to its config passes the gate.
  ScratchGit faithful;
  commit_gguf_beside_config(faithful, qwen3_8b_fixture());
  const auto clean = run_cli_in(faithful.path(), "diff --git HEAD~1..HEAD --format json");
  CHECK(clean.exit_code == 0);
  CHECK(new_findings(clean.out).empty());
}

TEST_CASE("diff --git HEAD: an untracked GGUF in the work tree is paired with the config beside it",
          "[cli][diff][gguf]") {
  ScratchGit repo;
  repo.write("m/config.json", read_file(source_path(kQwen3)));
  repo.commit("Qwen3-8B's config");
  qwen3_8b_fixture(40960, 10000.0f).write(repo.file("m/model.gguf"));
  const auto r = run_cli_in(repo.path(), "diff --git HEAD --format json");
  CHECK(r.exit_code == 1);
  CHECK(new_findings(r.out) == std::vector<std::string>{"m/model.gguf GGUF006"});
}

TEST_CASE("diff --git reads a GGUF blob larger than 16 MiB from its header, streamed, past 20 MiB of weights",
          "[cli][diff][gguf][stream]") {
  ScratchGit repo;
  repo.write("m/config.json", read_file(source_path(kLlama31)));
  repo.commit("Llama-3.1-8B's config");
  // The weights lie before rope_freqs.weight: the stream reads through them to reach the tensor.
  GgufWriter gguf = llama31_8b_fixture(500000.0f, false);
  gguf.tensor(zero_weights("token_embd.weight", 20u << 20))
      .f32_tensor("rope_freqs.weight", ropelens::test::llama3_rope_freqs(500000.0, 128, 8.0, 1.0, 4.0, 8192.0))
      .str("general.basename", "Llama-3.1");
  gguf.write(repo.file("m/model.gguf"));
  REQUIRE(fs::file_size(repo.file("m/model.gguf")) > (20u << 20));
  repo.commit("its GGUF");
  const auto faithful = run_cli_in(repo.path(), "diff --git HEAD~1..HEAD --format json");
  INFO(faithful.err);
  CHECK(faithful.exit_code == 0);
  REQUIRE(json::parse(faithful.out)["models"].size() == 1);
  CHECK(json::parse(faithful.out)["models"][0]["status"] == "added");

  GgufWriter lossy = llama31_8b_fixture(500000.0f, false);
  lossy.tensor(zero_weights("token_embd.weight", 20u << 20));
  lossy.write(repo.file("m/model.gguf"));
  repo.commit("rope_freqs.weight dropped");
  const auto dropped = run_cli_in(repo.path(), "diff --git HEAD~1..HEAD --format json");
  CHECK(dropped.exit_code == 1);
  CHECK(new_findings(dropped.out) == std::vector<std::string>{"m/model.gguf GGUF005"});

  // A config.json over 16 MiB is still refused, by its size, with one line naming the blob.
  repo.write("m/config.json", std::string(17u << 20, ' ') + read_file(source_path(kQwen3)));
  repo.commit("a padded config");
  const auto padded = run_cli_in(repo.path(), "diff --git HEAD~1..HEAD");
  CHECK(padded.exit_code == 2);
  CHECK_THAT(padded.err, Catch::Contains("HEAD:m/config.json: 17") && Catch::Contains("larger than 16 MiB"));
}

TEST_CASE(
    "diff --git through Git LFS: the pointer is followed into the LFS store, GGUF006, exit 1, and an object not "
    "fetched names the command that fetches it, and that command works",
    "[cli][diff][gguf][lfs]") {
  if (!git_lfs_installed()) {
    WARN("git-lfs is not installed (Debian package git-lfs, in cmake/install-deps.sh's build group): skipped");
    return;
  }
  TempDir remote;
  run_program({"git", "init", "-q", "--bare", remote.path()});
  ScratchGit repo;
  repo.git({"lfs", "install", "--local"});
  repo.git({"lfs", "track", "*.gguf"});
  commit_gguf_beside_config(repo, qwen3_8b_fixture(40960, 10000.0f));
  CHECK_THAT(repo.git({"cat-file", "blob", "HEAD:m/model.gguf"}),
             Catch::StartsWith("version https://git-lfs.github.com/spec/v1"));
  for (const std::string folder : {"", "m"}) {
    const auto r = run_cli_in(repo.file(folder), "diff --git HEAD~1..HEAD --format json");
    INFO(r.err);
    CHECK(r.exit_code == 1);
    CHECK(new_findings(r.out) == std::vector<std::string>{"m/model.gguf GGUF006"});
  }

  // Pushed, then the local objects removed: the one-line error names the fetch, which brings the object back.
  repo.git({"remote", "add", "origin", "file://" + remote.path()});
  repo.git({"push", "-q", "origin", "HEAD:main"});
  fs::remove_all(repo.file(".git/lfs/objects"));
  const auto missing = run_cli_in(repo.file("m"), "diff --git HEAD~1..HEAD");
  CHECK(missing.exit_code == 2);
  CHECK(std::count(missing.err.begin(), missing.err.end(), '\n') == 1);
  CHECK_THAT(missing.err, Catch::Contains("HEAD:m/model.gguf: a Git LFS pointer to an object this clone has not "
                                          "fetched") &&
                              Catch::Contains("fetch it with: git lfs fetch origin HEAD --include=m/model.gguf"));
  std::vector<std::string> fetch = fetch_command_in(missing.err);
  REQUIRE(fetch.size() == 6);
  fetch.insert(fetch.begin() + 1, {"-C", repo.file("m")});
  const auto fetched = run_program(fetch);
  INFO(fetched.err);
  REQUIRE(fetched.exit_code == 0);
  CHECK(run_cli_in(repo.file("m"), "diff --git HEAD~1..HEAD -q").exit_code == 1);
}

TEST_CASE("Git LFS pointers without git-lfs: followed into the LFS store at a revision and in the work tree",
          "[cli][diff][gguf][lfs]") {
  ScratchGit repo;
  repo.write("m/config.json", read_file(source_path(kQwen3)));
  repo.commit("Qwen3-8B's config");
  const std::string object = qwen3_8b_fixture(40960, 10000.0f).bytes();
  const std::string oid(64, 'a');  // ropelens finds the object by its name and size; git-lfs checks the hash
  repo.write("m/model.gguf", "version https://git-lfs.github.com/spec/v1\noid sha256:" + oid + "\nsize " +
                                 std::to_string(object.size()) + "\n");
  repo.commit("its GGUF, as Git LFS commits it");
  repo.write(".git/lfs/objects/aa/aa/" + oid, object);

  const auto at_revision = run_cli_in(repo.path(), "diff --git HEAD~1..HEAD --format json");
  INFO(at_revision.err);
  CHECK(at_revision.exit_code == 1);
  CHECK(new_findings(at_revision.out) == std::vector<std::string>{"m/model.gguf GGUF006"});
  const auto in_work_tree = run_cli_in(repo.path(), "check m --select GGUF");
  CHECK(in_work_tree.exit_code == 1);
  CHECK_THAT(in_work_tree.out, Catch::Contains("m/model.gguf: GGUF006 error"));
  // lfs.storage moves the store.
  fs::rename(repo.file(".git/lfs"), repo.file(".git/elsewhere"));
  repo.git({"config", "lfs.storage", "elsewhere"});
  CHECK(run_cli_in(repo.path(), "diff --git HEAD~1..HEAD -q").exit_code == 1);
}

TEST_CASE("diff --git: a config change that makes the GGUF beside it stale is a finding on the GGUF",
          "[cli][diff][gguf]") {
  ScratchGit repo;
  commit_gguf_beside_config(repo, qwen3_8b_fixture());
  json config = json::parse(read_file(repo.file("m/config.json")));
  config["rope_theta"] = 5000000.0;
  repo.write("m/config.json", config.dump(2));
  const auto r = run_cli_in(repo.path(), "diff --git HEAD --format json");
  CHECK(r.exit_code == 1);
  const json out = json::parse(r.out);
  REQUIRE(out["models"].size() == 2);
  CHECK(out["models"][1]["path"] == "m/model.gguf");
  CHECK(out["models"][1]["status"] == "config_changed");
  CHECK(out["models"][1]["old_path"] == "HEAD:m/model.gguf");
  CHECK(new_findings(r.out) == std::vector<std::string>{"m/model.gguf GGUF006"});
  CHECK_THAT(run_cli_in(repo.path(), "diff --git HEAD").out,
             Catch::Contains("m/model.gguf: config_changed (HEAD:m/model.gguf → m/model.gguf)") &&
                 Catch::Contains("convert_hf_to_gguf.py writes 5000000 for /rope_theta of m/config.json"));

  // A config change the GGUF still matches lists no GGUF.
  config["rope_theta"] = 1000000.0;
  config["architectures"] = json::array({"Qwen3ForCausalLM", "Qwen3Model"});
  repo.write("m/config.json", config.dump(2));
  const auto unrelated = run_cli_in(repo.path(), "diff --git HEAD --format json");
  CHECK(unrelated.exit_code == 0);
  const json unrelated_report = json::parse(unrelated.out);
  for (const auto& model : unrelated_report["models"]) CHECK(model["path"] == "m/config.json");
}

TEST_CASE(
    "diff CONFIG GGUF: a dropped llama3 tensor and a changed base exit 1 with the conversion finding, and the "
    "help names what works",
    "[cli][diff][gguf]") {
  TempDir dir;
  llama31_8b_fixture(500000.0f, false).write(dir.file("dropped.gguf"));
  llama31_8b_fixture(10000.0f).write(dir.file("base.gguf"));
  const std::string config = source_path(kLlama31);

  const auto dropped = run_cli("diff " + config + " " + dir.file("dropped.gguf") + " --format json");
  CHECK(dropped.exit_code == 1);
  const json introduced = json::parse(dropped.out)["models"][0]["findings"]["new"];
  REQUIRE(introduced.size() == 1);
  CHECK(introduced[0]["code"] == "GGUF005");
  const std::string message = introduced[0]["message"];
  const std::string help = introduced[0]["help"];
  CHECK_THAT(message, Catch::Contains("rope_freqs.weight is absent") &&
                          Catch::Contains("every layer run plain RoPE with base 500000"));
  CHECK_THAT(help, Catch::Contains("convert") && Catch::Contains("again") && Catch::Contains("PR #8676"));
  for (const char* cannot : {"--rope", "--yarn", "gguf_set_metadata", "gguf-set-metadata set", "--override-kv"})
    CHECK_THAT(help, !Catch::Contains(cannot) || Catch::Contains("no llama.cpp flag"));
  CHECK_THAT(help, !Catch::Contains("gguf-set-metadata " + dir.file("dropped.gguf")));

  // check on the folder says the same, and only that: a file without the tensor runs the plain RoPE of Llama 3 8B,
  // whose shape it shares, but the known base adds no CTX201 or CTX211 for the one cause.
  fs::create_directories(dir.file("folder"));
  write_file(dir.file("folder/config.json"), read_file(config));
  llama31_8b_fixture(500000.0f, false).write(dir.file("folder/model.gguf"));
  const json checked = json::parse(run_cli("check " + dir.file("folder") + " --format json").out);
  std::vector<std::string> on_the_gguf;
  for (const auto& file : checked["files"])
    if (file["path"].get<std::string>().ends_with("model.gguf"))
      for (const auto& d : file["diagnostics"]) on_the_gguf.push_back(d["code"]);
  CHECK(on_the_gguf == std::vector<std::string>{"GGUF005"});

  const auto base = run_cli("diff " + config + " " + dir.file("base.gguf") + " --format json");
  CHECK(base.exit_code == 1);
  CHECK(new_findings(base.out) == std::vector<std::string>{dir.file("base.gguf") + " GGUF006"});

  // Both lost: the file's own base in the message, not the config's.
  llama31_8b_fixture(10000.0f, false).write(dir.file("both.gguf"));
  const auto both = run_cli("diff " + config + " " + dir.file("both.gguf") + " --select GGUF005,GGUF006");
  CHECK(both.exit_code == 1);
  CHECK_THAT(both.out, Catch::Contains("every layer run plain RoPE with base 10000;") ||
                           Catch::Contains("every layer run plain RoPE with base 10000\n"));
  CHECK_THAT(both.out, !Catch::Contains("plain RoPE with base 500000"));
}

TEST_CASE("a GGUF whose base alone changed fails --fail-on error: GGUF006 is the error, GGUF004 stays silent",
          "[cli][diff][gguf]") {
  TempDir dir;
  fs::create_directories(dir.file("m"));
  write_file(dir.file("m/config.json"), read_file(source_path(kLlama31)));
  llama31_8b_fixture(10000.0f).write(dir.file("m/model.gguf"));  // the converter's divisors for base 500000
  const auto checked = run_cli("check " + dir.file("m") + " --fail-on error --format json");
  CHECK(checked.exit_code == 1);
  CHECK_THAT(checked.out, Catch::Contains("\"GGUF006\"") && !Catch::Contains("\"GGUF004\""));
  const auto diffed =
      run_cli("diff " + dir.file("m/config.json") + " " + dir.file("m/model.gguf") + " --fail-on error --format json");
  CHECK(diffed.exit_code == 1);
  CHECK(new_findings(diffed.out) == std::vector<std::string>{dir.file("m/model.gguf") + " GGUF006"});
  // Without its config the tensor is read alone: it is no llama3 closed form at base 10000, and GGUF004 says so.
  TempDir alone;
  llama31_8b_fixture(10000.0f).write(alone.file("model.gguf"));
  CHECK_THAT(run_cli("check " + alone.file("model.gguf") + " --select GGUF").out, Catch::Contains("GGUF004"));
}

TEST_CASE(
    "every GGUF rule case and its config: check FOLDER and diff CONFIG GGUF report the same findings on the "
    "GGUF, and diff --git on a commit adding it fails the gate exactly when they do",
    "[cli][diff][gguf][agreement]") {
  int cases = 0;
  for (const auto& entry : fs::directory_iterator(source_path("testdata/rules"))) {
    if (entry.path().filename().string().rfind("GGUF", 0) != 0) continue;
    for (const auto& folder : fs::directory_iterator(entry.path())) {
      const fs::path config = folder.path() / "config.json", gguf = folder.path() / "model.gguf";
      if (!fs::exists(config) || !fs::exists(gguf)) continue;
      ++cases;
      INFO(folder.path().string());
      const json checked = json::parse(run_cli("check " + folder.path().string() + " --format json").out);
      std::vector<std::string> from_check;
      // check names a file under the working directory relative to it: compare canonical paths.
      auto is_the_gguf = [&](const json& file) {
        return fs::weakly_canonical(file["path"].get<std::string>()) == fs::weakly_canonical(gguf);
      };
      for (const auto& file : checked["files"])
        if (is_the_gguf(file))
          for (const auto& d : file["diagnostics"])
            from_check.push_back(d["code"].get<std::string>() + " " + d["message"].get<std::string>());
      const auto diffed = run_cli("diff " + config.string() + " " + gguf.string() + " --format json");
      std::vector<std::string> from_diff;
      const json diff_report = json::parse(diffed.out);
      for (const auto& d : diff_report["models"][0]["findings"]["new"])
        if (d["code"].get<std::string>().rfind("GGUF", 0) == 0)
          from_diff.push_back(d["code"].get<std::string>() + " " + d["message"].get<std::string>());
      std::vector<std::string> conversion_in_check;
      for (const auto& f : from_check)
        if (f.rfind("GGUF", 0) == 0) conversion_in_check.push_back(f);
      CHECK(from_diff == conversion_in_check);

      ScratchGit repo;
      repo.write("m/config.json", read_file(config.string()));
      repo.commit("the config");
      repo.write("m/model.gguf", read_file(gguf.string()));
      repo.commit("its GGUF");
      const auto gate = run_cli_in(repo.path(), "diff --git HEAD~1..HEAD --format json");
      std::vector<std::string> codes_in_check, codes_in_gate;
      for (const auto& f : from_check) codes_in_check.push_back(f.substr(0, f.find(' ')));
      for (const auto& f : new_findings(gate.out))
        if (f.rfind("m/model.gguf ", 0) == 0) codes_in_gate.push_back(f.substr(13));
      CHECK(codes_in_gate == codes_in_check);
      const bool fails = std::any_of(checked["files"].begin(), checked["files"].end(), [&](const json& file) {
        return is_the_gguf(file) && std::any_of(file["diagnostics"].begin(), file["diagnostics"].end(),
                                                [](const json& d) { return d["severity"] != "info"; });
      });
      CHECK(gate.exit_code == (fails ? 1 : 0));
    }
  }
  CHECK(cases >= 8);
}

TEST_CASE(
    "one evidence path: a GGUF file's trained length from a known base, its config, a baseline, "
    ".ropelens.json and --trained-length, as a config's",
    "[cli][gguf][trained]") {
  TempDir dir;
  // Qwen3-8B's shape with context_length raised and the RoPE unchanged: the known base, as for the config.
  qwen3_8b_fixture(131072).write(dir.file("raised.gguf"));
  json raised_config = json::parse(read_file(source_path(kQwen3)));
  raised_config["max_position_embeddings"] = 131072;
  write_file(dir.file("raised.json"), raised_config.dump(2));
  const json from_gguf = json::parse(run_cli("check " + dir.file("raised.gguf") + " --format json").out);
  const json from_config = json::parse(run_cli("check " + dir.file("raised.json") + " --format json").out);
  auto codes_and_facts = [](const json& report) {
    std::vector<std::string> out;
    for (const auto& d : report["files"][0]["diagnostics"])
      if (d["code"] == "CTX201" || d["code"] == "CTX211")
        out.push_back(d["code"].get<std::string>() + " " + d["facts"].dump());
    return out;
  };
  CHECK(codes_and_facts(from_gguf).size() == 2);
  CHECK(codes_and_facts(from_gguf) == codes_and_facts(from_config));
  const auto table = run_cli("table " + dir.file("raised.gguf") + " --target 131072");
  CHECK_THAT(table.out, Catch::Contains("at 131072 tokens: 23 pairs out of range (pairs 41–63; trained 40960 tokens)"));
  CHECK_THAT(table.out, !Catch::Contains("every pair"));

  // A shape no known base has: the config beside it (or --source) gives the length it was trained at.
  GgufWriter custom = ropelens::test::llama_like("qwen3", 131072, 30, 4096, 32);
  custom.u32("qwen3.attention.head_count_kv", 8)
      .u32("qwen3.attention.key_length", 128)
      .f32("qwen3.rope.freq_base", 1000000.0f);
  json custom_config = json::parse(read_file(source_path(kQwen3)));
  custom_config["num_hidden_layers"] = 30;
  fs::create_directories(dir.file("custom"));
  write_file(dir.file("custom/config.json"), custom_config.dump(2));
  custom.write(dir.file("custom/model.gguf"));
  const auto beside = run_cli("check " + dir.file("custom/model.gguf") + " --format json");
  std::vector<std::string> codes;
  const json beside_report = json::parse(beside.out);
  for (const auto& d : beside_report["files"][0]["diagnostics"]) {
    codes.push_back(d["code"]);
    if (d["code"] == "CTX211") {
      CHECK(d["facts"]["source"] == "source_config");
      CHECK(d["facts"]["trained_tokens"] == 40960);
      CHECK_THAT(d["message"].get<std::string>(),
                 Catch::Contains("qwen3.context_length 131072 is raised 3.2× over the trained length with RoPE "
                                 "unchanged: the config it was converted from, " +
                                 dir.file("custom/config.json") +
                                 " (max_position_embeddings 40960) was trained at "
                                 "40960 tokens"));
    }
  }
  CHECK(has(codes, "CTX201"));
  CHECK(has(codes, "CTX211"));
  CHECK(has(codes, "GGUF007"));
  TempDir elsewhere;
  custom.write(elsewhere.file("model.gguf"));
  CHECK_THAT(run_cli("check " + elsewhere.file("model.gguf") + " --source " + dir.file("custom/config.json")).out,
             Catch::Contains("CTX211") && Catch::Contains("the config it was converted from"));
  CHECK_THAT(run_cli("check " + elsewhere.file("model.gguf")).out, !Catch::Contains("CTX211"));
  CHECK_THAT(run_cli("table " + dir.file("custom/model.gguf") + " --target 131072").out,
             Catch::Contains("trained 40960 tokens"));

  // A baseline recorded at 40960; the file then raised: the recorded length bounds it.
  TempDir project;
  GgufWriter at_40960 = ropelens::test::llama_like("qwen3", 40960, 30, 4096, 32);
  at_40960.u32("qwen3.attention.head_count_kv", 8)
      .u32("qwen3.attention.key_length", 128)
      .f32("qwen3.rope.freq_base", 1000000.0f);
  at_40960.write(project.file("model.gguf"));
  REQUIRE(run_cli_in(project.path(), "check model.gguf --write-baseline baseline.json").exit_code == 0);
  custom.write(project.file("model.gguf"));
  const auto with_baseline = run_cli_in(project.path(), "check model.gguf --baseline baseline.json");
  CHECK_THAT(with_baseline.out, Catch::Contains("CTX211") && Catch::Contains("the earlier version model.gguf in the "
                                                                             "baseline"));
  // .ropelens.json and --trained-length state it.
  write_file(project.file(".ropelens.json"), R"({"trained_length": {"*.gguf": 32768}})");
  CHECK_THAT(run_cli_in(project.path(), "table model.gguf --target 131072").out,
             Catch::Contains("trained 32768 tokens"));
  CHECK_THAT(run_cli_in(project.path(), "table model.gguf --target 131072 --trained-length 65536").out,
             Catch::Contains("trained 65536 tokens"));
}
