// suggest on a GGUF file and on an Ollama model: llama.cpp flags, verified by check on the file's metadata with
// the keys the flags stand for; a file written with those keys passes `ropelens check` on its own.
#include <cstdlib>
#include <filesystem>
#include <optional>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "gguf_writer.hpp"
#include "ropelens/suggest/suggest.hpp"
#include "support.hpp"

using namespace ropelens;
using ropelens::test::GgufWriter;
using ropelens::test::run_cli;
using ropelens::test::TempDir;
namespace fs = std::filesystem;

using ropelens::test::ScopedEnv;

namespace {

// Qwen2.5-like: 128-dim heads, base 1e6, 32768 tokens, no scaling.
GgufWriter unscaled_qwen2() {
  GgufWriter w = ropelens::test::llama_like("qwen2", 32768, 4, 5120, 40);
  w.u32("qwen2.attention.head_count_kv", 8).f32("qwen2.rope.freq_base", 1000000.0f);
  return w;
}

const Suggestion& suggestion_for(const SuggestReport& report, SuggestMethod wanted) {
  for (const auto& s : report.suggestions)
    if (s.method == wanted) return s;
  FAIL("no suggestion for " << to_string(wanted));
  return report.suggestions.front();
}

}  // namespace

TEST_CASE("suggest on a GGUF file gives llama.cpp flags that check accepts", "[suggest][gguf]") {
  TempDir dir;
  const std::string path = dir.file("qwen.gguf");
  unscaled_qwen2().write(path);
  SuggestRequest request;
  request.target_tokens = 131072;
  const SuggestReport report = suggest_changes(path, request);
  REQUIRE(report.suggestions.size() == 3);
  CHECK(report.original_tokens == 32768);

  const Suggestion& yarn = suggestion_for(report, SuggestMethod::yarn);
  CHECK(yarn.verified);
  CHECK(yarn.remaining.empty());
  CHECK(yarn.edits.empty());
  CHECK(yarn.check_command.empty());
  REQUIRE(yarn.engine_limits.size() == 1);  // only llama.cpp runs a GGUF file
  CHECK(yarn.engine_limits.front().second == 131072);
  REQUIRE(yarn.snippets.size() == 1);
  CHECK(yarn.snippets.front().engine == Engine::llama_cpp);
  CHECK(yarn.snippets.front().command == "llama-server -m '" + path +
                                             "' -c 131072 --rope-scaling yarn --rope-scale 4 --yarn-orig-ctx 32768 "
                                             "--override-kv qwen2.context_length=int:131072");

  const Suggestion& ntk = suggestion_for(report, SuggestMethod::ntk_base);
  CHECK(ntk.verified);
  CHECK(ntk.snippets.front().command.find("--rope-freq-base ") != std::string::npos);

  // The metadata llama.cpp runs with those flags, written as a file: check passes on it by itself.
  GgufWriter fresh = ropelens::test::llama_like("qwen2", 131072, 4, 5120, 40);
  fresh.u32("qwen2.attention.head_count_kv", 8)
      .f32("qwen2.rope.freq_base", 1000000.0f)
      .str("qwen2.rope.scaling.type", "yarn")
      .f32("qwen2.rope.scaling.factor", 4.0f)
      .u32("qwen2.rope.scaling.original_context_length", 32768);
  fresh.write(dir.file("qwen-yarn.gguf"));
  const auto checked = run_cli("check '" + dir.file("qwen-yarn.gguf") + "' --target 131072 -q");
  INFO(checked.out);
  CHECK(checked.exit_code == 0);
  // The file as it is fails there: the verification can tell the two apart.
  CHECK(run_cli("check '" + path + "' --target 131072 -q").exit_code == 1);
}

TEST_CASE("suggest on an ollama: name reads its blob and gives llama.cpp flags", "[suggest][gguf][cli]") {
  TempDir dir;
  const std::string hex = std::string(60, 'c') + "5678";
  const fs::path models = dir.file("ollama");
  fs::create_directories(models / "blobs");
  const fs::path blob = models / "blobs" / ("sha256-" + hex);
  unscaled_qwen2().write(blob.string());
  const nlohmann::json manifest = {
      {"schemaVersion", 2},
      {"layers", {{{"mediaType", "application/vnd.ollama.image.model"}, {"digest", "sha256:" + hex}}}}};
  ropelens::test::write_file((models / "manifests/registry.ollama.ai/library/qwen-tiny/latest").string(),
                             manifest.dump());
  ScopedEnv ollama("OLLAMA_MODELS", models.string());

  const auto text = run_cli("suggest ollama:qwen-tiny --target 128k");
  INFO(text.out << text.err);
  REQUIRE(text.exit_code == 0);
  CHECK(text.out.find("ollama:qwen-tiny:latest@cccccccccccc (qwen2) at 131072 tokens") != std::string::npos);
  CHECK(text.out.find("--rope-scaling yarn --rope-scale 4") != std::string::npos);
  CHECK(text.out.find("verified: check of the file") != std::string::npos);
  const auto document = nlohmann::json::parse(run_cli("suggest ollama:qwen-tiny --target 128k --format json").out);
  const auto& yarn = document["suggestions"][0];
  CHECK(yarn["method"] == "yarn");
  CHECK(yarn["verified"] == true);
  CHECK(yarn["remaining"].empty());
  CHECK(yarn["snippets"][0]["command"].get<std::string>().find(blob.string()) != std::string::npos);
}

TEST_CASE("suggest on a Llama 3.1 GGUF agrees with suggest on its config.json", "[suggest][gguf]") {
  TempDir dir;
  GgufWriter w = ropelens::test::llama_like("llama", 131072, 4, 4096, 32);
  w.u32("llama.attention.head_count_kv", 8)
      .u32("llama.rope.dimension_count", 128)
      .f32("llama.rope.freq_base", 500000.0f)
      .f32_tensor("rope_freqs.weight", ropelens::test::llama3_rope_freqs(500000.0, 128, 8.0, 1.0, 4.0, 8192.0));
  w.write(dir.file("llama31.gguf"));
  SuggestRequest request;
  request.target_tokens = 524288;
  const SuggestReport gguf = suggest_changes(dir.file("llama31.gguf"), request);
  const SuggestReport config = suggest_changes(
      ropelens::test::source_path("testdata/configs/llama/llama-3.1-8b-instruct-bnb8bit-finetune.json"), request);
  // The same trained length and the same pairs out of range, read from the tensor and from rope_scaling.
  CHECK(gguf.original_tokens == 8192);
  CHECK(gguf.original_tokens == config.original_tokens);
  CHECK(gguf.out_of_range_before == config.out_of_range_before);
  CHECK(gguf.out_of_range_before.size() == 25);
  REQUIRE(gguf.suggestions.size() == 3);
  for (const auto& s : gguf.suggestions) {
    INFO(to_string(s.method) << " " << s.snippets.front().command);
    CHECK(s.method != SuggestMethod::llama3_factor);
    CHECK(s.snippets.front().command.rfind("llama-server -m ", 0) == 0);
    // llama.cpp applies the flags on top of the llama3 divisors it keeps: the pairs do change, and nothing says the
    // user's flags replaced the trained method or that the divisors no longer fit.
    CHECK(s.short_inputs.pairs_changed > 0);
    for (const auto& finding : s.remaining) {
      CHECK(finding.code != "ENG305");
      CHECK(finding.code != "GGUF004");
    }
  }
  // YaRN on top of the divisors (45 pairs, as on the config side) and the NTK base pass check of the flagged file.
  CHECK(gguf.suggestions[0].method == SuggestMethod::yarn);
  CHECK(gguf.suggestions[0].verified);
  CHECK(gguf.suggestions[0].short_inputs.pairs_changed == config.suggestions[0].short_inputs.pairs_changed);
  CHECK(gguf.suggestions[2].method == SuggestMethod::ntk_base);
  CHECK(gguf.suggestions[2].verified);
  CHECK(gguf.suggestions[2].value == config.suggestions[2].value);
  bool noted = false;
  for (const auto& note : gguf.notes) noted = noted || note.find("rope_freqs tensor") != std::string::npos;
  CHECK(noted);
}
