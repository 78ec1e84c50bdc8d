// Models by name, offline: Hugging Face ids in a hub-cache layout and Ollama models (issue 14 §1).
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "gguf_writer.hpp"
#include "ropelens/input/input.hpp"
#include "ropelens/load/model_loader.hpp"
#include "ropelens/input/model_locator.hpp"
#include "support.hpp"

namespace fs = std::filesystem;
using Catch::Matchers::Contains;
using nlohmann::json;
using ropelens::InputError;
using ropelens::locate_model;
using ropelens::test::cache_file;
using ropelens::test::read_file;
using ropelens::test::run_cli;
using ropelens::test::run_cli_in;
using ropelens::test::source_path;
using ropelens::test::TempDir;
using ropelens::test::write_file;

using ropelens::test::kQwen3;
using ropelens::test::ScopedEnv;

namespace {

const std::string kMain = "0123456789abcdef0123456789abcdef01234567";
const std::string kV1 = "fedcba9876543210fedcba9876543210fedcba98";

// <hub>/models--Qwen--Qwen3-8B with main and the tag v1, each a snapshot of the Qwen3-8B config.
fs::path make_hub(const TempDir& dir) {
  const fs::path repo = fs::path(dir.file("hub")) / "models--Qwen--Qwen3-8B";
  const std::string config = read_file(source_path(kQwen3));
  cache_file(repo, kMain, "config.json", config);
  cache_file(repo, kMain, "model.safetensors.index.json",
             R"({"metadata": {"total_size": 16381470720}, "weight_map": {}})");
  cache_file(repo, kV1, "config.json", config);
  write_file((repo / "refs" / "main").string(), kMain);  // huggingface_hub writes no trailing newline
  write_file((repo / "refs" / "v1").string(), kV1 + "\n");
  return repo;
}

std::string error_of(const std::string& spec, const std::optional<std::string>& revision = std::nullopt) {
  try {
    locate_model(spec, revision);
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

json diagnostics_of(const std::string& check_json) { return json::parse(check_json)["files"][0]["diagnostics"]; }

}  // namespace

TEST_CASE("Hugging Face ids resolve in the hub cache like try_to_load_from_cache", "[locator]") {
  TempDir dir;
  const fs::path repo = make_hub(dir);
  ScopedEnv cache("HF_HUB_CACHE", dir.file("hub"));

  const auto main = locate_model("Qwen/Qwen3-8B");
  CHECK(main.path == (repo / "snapshots" / kMain / "config.json").string());
  CHECK(main.shown == "Qwen/Qwen3-8B@0123456789ab");
  REQUIRE(main.reference);
  CHECK(main.reference->revision == "main");
  CHECK(main.reference->resolved == kMain);
  CHECK(main.reference->cache == dir.file("hub"));

  CHECK(locate_model("Qwen/Qwen3-8B@v1").reference->resolved == kV1);
  CHECK(locate_model("Qwen/Qwen3-8B", "v1").reference->resolved == kV1);
  CHECK(locate_model("Qwen/Qwen3-8B@" + kV1).shown == "Qwen/Qwen3-8B@fedcba987654");  // a commit needs no ref

  // A path that exists always wins, and other spellings stay paths for the reader to report.
  CHECK_FALSE(locate_model(source_path(kQwen3)).reference);
  CHECK(locate_model("./no/such/config.json").path == "./no/such/config.json");
}

TEST_CASE("the cache folder follows huggingface_hub's variables in order", "[locator]") {
  TempDir dir;
  make_hub(dir);
  fs::create_directories(dir.file("home"));
  fs::rename(dir.file("hub"), dir.file("home/hub"));
  ScopedEnv unset_cache("HF_HUB_CACHE", "");
  ::unsetenv("HF_HUB_CACHE");
  ScopedEnv legacy("HUGGINGFACE_HUB_CACHE", "");
  ::unsetenv("HUGGINGFACE_HUB_CACHE");
  ScopedEnv home("HF_HOME", dir.file("home"));
  CHECK(locate_model("Qwen/Qwen3-8B").reference->cache == dir.file("home/hub"));
}

TEST_CASE("a model or revision the cache lacks is an error naming what was searched", "[locator]") {
  TempDir dir;
  make_hub(dir);
  ScopedEnv cache("HF_HUB_CACHE", dir.file("hub"));
  CHECK(error_of("Qwen/Qwen9-1T") ==
        "Qwen/Qwen9-1T: no such file, and no model 'Qwen/Qwen9-1T' in the Hugging Face cache (did you mean "
        "'Qwen/Qwen3-8B'?): searched " +
            dir.file("hub") + "/models--Qwen--Qwen9-1T (from HF_HUB_CACHE)");
  CHECK(error_of("Qwen/Qwen3-8B@v2") == "Qwen/Qwen3-8B@v2: revision 'v2' is not in the Hugging Face cache " +
                                            dir.file("hub") +
                                            "/models--Qwen--Qwen3-8B (refs: main -> 0123456789ab, "
                                            "v1 -> fedcba987654; snapshots: 0123456789ab, fedcba987654)");
  CHECK_THAT(error_of("Qwen/Qwen3-8B@../../etc"), Contains("is not a branch, tag or commit name"));
  CHECK_THAT(error_of("Qwen/Qwen3-8B@v1", "main"), Contains("two revisions"));
  CHECK_THAT(error_of(source_path(kQwen3), "main"), Contains("--revision main applies to a model id"));
}

TEST_CASE("check by id gives the file's own findings, an unknown id exits 2", "[locator][cli]") {
  TempDir dir;
  make_hub(dir);
  ScopedEnv cache("HF_HUB_CACHE", dir.file("hub"));
  const auto by_id = run_cli("check Qwen/Qwen3-8B --target 131072 --format json");
  const auto by_path = run_cli("check " + source_path(kQwen3) + " --target 131072 --format json");
  CHECK(by_id.exit_code == 1);
  CHECK(by_id.exit_code == by_path.exit_code);
  CHECK(json::parse(by_id.out)["files"][0]["path"] == "Qwen/Qwen3-8B@0123456789ab");
  CHECK(diagnostics_of(by_id.out) == diagnostics_of(by_path.out));
  CHECK(diagnostics_of(by_id.out).size() > 0);

  const auto unknown = run_cli("check Qwen/Qwen9-1T");
  CHECK(unknown.exit_code == 2);
  CHECK_THAT(unknown.err, Contains("searched " + dir.file("hub") + "/models--Qwen--Qwen9-1T (from HF_HUB_CACHE)"));
}

TEST_CASE("inspect by id shows the id, the revision and the snapshot, the weights come from the index",
          "[locator][cli]") {
  TempDir dir;
  const fs::path repo = make_hub(dir);
  ScopedEnv cache("HF_HUB_CACHE", dir.file("hub"));
  const auto text = run_cli("inspect Qwen/Qwen3-8B --target 40960");
  REQUIRE(text.exit_code == 0);
  CHECK_THAT(
      text.out,
      Contains("Qwen/Qwen3-8B@0123456789ab\nmodel id                           Qwen/Qwen3-8B @ main -> " + kMain +
               "\nfile                               " + (repo / "snapshots" / kMain / "config.json").string() + "\n"));
  // 36 layers × 8 heads × 128 × (K + V) × 2 bytes × 40960 tokens.
  CHECK_THAT(text.out, Contains("KV cache at 40960 tokens, bf16 (2 bytes per value; /torch_dtype): 5.62 GiB "
                                "(6,039,797,760 bytes)"));
  CHECK_THAT(text.out, Contains("weights 15.26 GiB (derived: metadata.total_size of "));
  CHECK_THAT(text.out, Contains("weights + KV cache 20.88 GiB (22,421,268,480 bytes)"));

  const json doc = json::parse(run_cli("inspect Qwen/Qwen3-8B@v1 --format json --target 40960").out);
  CHECK(doc["source"] == "Qwen/Qwen3-8B@fedcba987654");
  CHECK(doc["reference"]["path"] == (repo / "snapshots" / kV1 / "config.json").string());
  CHECK(doc["reference"]["revision"] == "v1");
  CHECK(doc["kv_cache"]["total_bytes"] == 6'039'797'760ULL);
  CHECK(doc["kv_cache"]["weights_bytes"] == nullptr);  // the v1 snapshot has no index
}

TEST_CASE("a folder that exists wins over an id of the same spelling", "[locator][cli]") {
  TempDir dir;
  write_file(dir.file("Qwen/Qwen3-8B/config.json"), read_file(source_path(kQwen3)));
  ScopedEnv cache("HF_HUB_CACHE", dir.file("empty-hub"));
  const auto result = run_cli_in(dir.path(), "inspect Qwen/Qwen3-8B");
  CHECK(result.exit_code == 0);
  CHECK(result.out.rfind("Qwen/Qwen3-8B/config.json\n", 0) == 0);
}

TEST_CASE("ollama:NAME[:TAG] resolves the model layer's GGUF blob", "[locator][cli]") {
  TempDir dir;
  const std::string hex = std::string(60, 'a') + "1234";
  const fs::path models = dir.file("ollama");
  ropelens::test::GgufWriter gguf;
  gguf.str("general.architecture", "llama")
      .str("general.name", "tiny")
      .u32("general.file_type", 7)
      .u32("llama.context_length", 8192)
      .u32("llama.embedding_length", 512)
      .u32("llama.block_count", 2)
      .u32("llama.attention.head_count", 4);
  fs::create_directories(models / "blobs");
  gguf.write((models / "blobs" / ("sha256-" + hex)).string());
  const json manifest = {
      {"schemaVersion", 2},
      {"layers",
       {{{"mediaType", "application/vnd.ollama.image.template"}, {"digest", "sha256:" + std::string(64, 'b')}},
        {{"mediaType", "application/vnd.ollama.image.model"}, {"digest", "sha256:" + hex}}}}};
  write_file((models / "manifests/registry.ollama.ai/library/tiny/latest").string(), manifest.dump());
  ScopedEnv ollama("OLLAMA_MODELS", " '" + models.string() + "' ");  // Ollama trims spaces and quotes

  const auto located = locate_model("ollama:tiny");
  CHECK(located.path == (models / "blobs" / ("sha256-" + hex)).string());
  CHECK(located.shown == "ollama:tiny:latest@aaaaaaaaaaaa");
  CHECK(located.reference->resolved == "sha256:" + hex);

  const auto inspect = run_cli("inspect ollama:tiny:latest");
  REQUIRE(inspect.exit_code == 0);
  CHECK_THAT(inspect.out, Contains("  architecture       llama\n"));
  CHECK_THAT(inspect.out, Contains("  file type          Q8_0 (general.file_type 7)\n"));

  CHECK_THAT(error_of("ollama:tiny:q4"), Contains("no such Ollama model; searched " +
                                                  (models / "manifests/registry.ollama.ai/library/tiny/q4").string() +
                                                  " (OLLAMA_MODELS; tags there: latest)"));
  CHECK_THAT(error_of("ollama:a/b/c/d"), Contains("not an Ollama model name"));
}

TEST_CASE("a short commit, as suggest prints it, resolves to the one cached snapshot it begins", "[locator][cli]") {
  TempDir dir;
  const fs::path repo = make_hub(dir);
  ScopedEnv cache("HF_HUB_CACHE", dir.file("hub"));
  CHECK(locate_model("Qwen/Qwen3-8B@0123456789ab").reference->resolved == kMain);
  CHECK(locate_model("Qwen/Qwen3-8B@fedcba9").reference->resolved == kV1);
  CHECK(locate_model("Qwen/Qwen3-8B", "FEDCBA98").reference->resolved == kV1);
  CHECK(locate_model("Qwen/Qwen3-8B@fedcba9").shown == "Qwen/Qwen3-8B@fedcba987654");
  CHECK_THAT(error_of("Qwen/Qwen3-8B@fedcba"), Contains("revision 'fedcba' is not in the Hugging Face cache"));
  CHECK_THAT(error_of("Qwen/Qwen3-8B@fedcba0"), Contains("revision 'fedcba0' is not in the Hugging Face cache"));

  // What suggest prints, check takes back.
  const auto suggested = run_cli("suggest Qwen/Qwen3-8B --target 128k");
  REQUIRE(suggested.exit_code == 0);
  const auto at = suggested.out.find("ropelens check 'Qwen/Qwen3-8B@");
  REQUIRE(at != std::string::npos);
  const auto start = suggested.out.find('\'', at);
  const std::string spec = suggested.out.substr(start + 1, suggested.out.find('\'', start + 1) - start - 1);
  CHECK(spec == "Qwen/Qwen3-8B@0123456789ab");
  const auto checked = run_cli("check '" + spec + "' --target 128k");
  INFO(checked.err);
  CHECK(checked.exit_code != 2);
  CHECK_THAT(checked.out, Contains("Qwen/Qwen3-8B@0123456789ab"));

  const std::string sibling = "0123456789abcdef0000000000000000000000ff";
  cache_file(repo, sibling, "config.json", read_file(source_path(kQwen3)));
  CHECK_THAT(error_of("Qwen/Qwen3-8B@0123456789"),
             Contains("revision '0123456789' is ambiguous: 2 cached snapshots begin with it (" + sibling + ", " +
                      kMain + ")"));
  CHECK(locate_model("Qwen/Qwen3-8B@0123456789abcdef01").reference->resolved == kMain);
}

TEST_CASE("a model id that Ollama or the hub cache has under another spelling gets that spelling", "[locator][cli]") {
  TempDir dir;
  make_hub(dir);
  ScopedEnv cache("HF_HUB_CACHE", dir.file("hub"));
  const fs::path models = dir.file("ollama");
  write_file((models / "manifests/registry.ollama.ai/library/llama3.1/8b").string(), R"({"layers": []})");
  ScopedEnv ollama("OLLAMA_MODELS", models.string());

  auto r = run_cli("check llama3.1:8b");
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Contains("llama3.1:8b: no such file or Hugging Face model; Ollama has one (did you mean "
                             "'ollama:llama3.1:8b'?)"));
  CHECK_THAT(run_cli("inspect llama3.1:70b").err, !Contains("did you mean"));
  CHECK_THAT(run_cli("inspect Qwen/qwen3-8b").err,
             Contains("no model 'Qwen/qwen3-8b' in the Hugging Face cache (did you mean 'Qwen/Qwen3-8B'?)"));
}

TEST_CASE("inspect of a model id shows the file read and the weights' index the same way", "[locator][cli]") {
  TempDir dir;
  make_hub(dir);
  ScopedEnv cache("HF_HUB_CACHE", dir.file("hub"));
  const std::string snapshot = "hub/models--Qwen--Qwen3-8B/snapshots/" + kMain;
  const auto inside = run_cli_in(dir.path(), "inspect Qwen/Qwen3-8B --target 128k");
  CHECK_THAT(inside.out, Contains("file                               " + snapshot + "/config.json\n"));
  CHECK_THAT(inside.out, Contains("metadata.total_size of " + snapshot + "/model.safetensors.index.json"));
  const auto outside = run_cli("inspect Qwen/Qwen3-8B --target 128k");  // the working directory is the source tree
  CHECK_THAT(outside.out, Contains("file                               " + dir.file(snapshot) + "/config.json\n"));
  CHECK_THAT(outside.out, Contains("metadata.total_size of " + dir.file(snapshot) + "/model.safetensors.index.json"));
}

TEST_CASE("a model id's findings point at the file read: SARIF, GitHub annotations and text", "[locator][cli]") {
  TempDir dir;
  make_hub(dir);
  ScopedEnv cache("HF_HUB_CACHE", dir.file("hub"));
  const std::string snapshot_file = "hub/models--Qwen--Qwen3-8B/snapshots/" + kMain + "/config.json";

  // Outside the working directory: the file's URI, with no %SRCROOT% to resolve it against.
  const auto sarif = run_cli("check Qwen/Qwen3-8B --target 131072 --format sarif");
  CHECK(sarif.exit_code == 1);
  const json sarif_log = json::parse(sarif.out);
  const json& location = sarif_log["runs"][0]["results"][0]["locations"][0]["physicalLocation"];
  CHECK(location["artifactLocation"]["uri"] == "file://" + dir.file(snapshot_file));
  CHECK_FALSE(location["artifactLocation"].contains("uriBaseId"));
  CHECK(location["region"]["startLine"].get<int>() > 1);
  const auto github = run_cli("check Qwen/Qwen3-8B --target 131072 --format github");
  // The workflow command escapes ':' in a property as %3A; GitHub reads it back as file://.
  CHECK_THAT(github.out, Contains("::error file=file%3A//" + dir.file(snapshot_file) + ",line="));
  CHECK_THAT(run_cli("check Qwen/Qwen3-8B --target 131072 -q").out,
             Contains("file://" + dir.file(snapshot_file) + ":"));
  // diff's new findings point at the same file: the old side is the config with YaRN to 131072, the new side the id.
  json scaled = json::parse(read_file(dir.file(snapshot_file)));
  scaled["rope_scaling"] = {{"rope_type", "yarn"}, {"factor", 4.0}, {"original_max_position_embeddings", 32768}};
  write_file(dir.file("scaled.json"), scaled.dump());
  const auto diff_sarif = run_cli("diff " + dir.file("scaled.json") + " Qwen/Qwen3-8B --target 131072 --format sarif");
  INFO(diff_sarif.err);
  const json diff_log = json::parse(diff_sarif.out);
  REQUIRE_FALSE(diff_log["runs"][0]["results"].empty());
  CHECK(diff_log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] ==
        "file://" + dir.file(snapshot_file));
  const auto diff_github =
      run_cli("diff " + dir.file("scaled.json") + " Qwen/Qwen3-8B --target 131072 --format github");
  CHECK_THAT(diff_github.out, Contains("::error file=file%3A//" + dir.file(snapshot_file) + ",line="));

  // Inside it: the path relative to it, under %SRCROOT%.
  const auto inside = run_cli_in(dir.path(), "check Qwen/Qwen3-8B --target 131072 --format sarif");
  const json inside_log = json::parse(inside.out);
  const json& relative = inside_log["runs"][0]["results"][0]["locations"][0]["physicalLocation"];
  CHECK(relative["artifactLocation"]["uri"] == snapshot_file);
  CHECK(relative["artifactLocation"]["uriBaseId"] == "%SRCROOT%");
  CHECK_THAT(run_cli_in(dir.path(), "check Qwen/Qwen3-8B --target 131072 --format github").out,
             Contains("::error file=" + snapshot_file + ",line="));
  // The summary still names the model by its id.
  CHECK(json::parse(
            run_cli_in(dir.path(), "check Qwen/Qwen3-8B --target 131072 --format json").out)["files"][0]["path"] ==
        "Qwen/Qwen3-8B@0123456789ab");
}
