// The weights beside a config read from safetensors headers (issue #28): a single model.safetensors in a fake
// Hugging Face cache, counted by inspect and --memory; and what --memory says when they are unknown.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <optional>

#include <nlohmann/json.hpp>

#include "safetensors_writer.hpp"
#include "support.hpp"

namespace fs = std::filesystem;
using Catch::Matchers::Contains;
using nlohmann::json;
using ropelens::test::cache_blob;
using ropelens::test::cache_file;
using ropelens::test::read_file;
using ropelens::test::run_cli;
using ropelens::test::run_cli_in;
using ropelens::test::SafetensorsSpec;
using ropelens::test::source_path;
using ropelens::test::TempDir;
using ropelens::test::write_file;
using ropelens::test::write_safetensors;

using ropelens::test::kQwen3;
using ropelens::test::ScopedEnv;

namespace {

const std::string kCommit = "0123456789abcdef0123456789abcdef01234567";

// Qwen3-8B's shapes: untied 151936 × 4096 embedding and lm_head, 36 layers of q/k/v/o (32 heads, 8 KV heads,
// head_dim 128), all BF16; the data region stays sparse.
std::vector<SafetensorsSpec> qwen3_8b_tensors() {
  std::vector<SafetensorsSpec> tensors{{"model.embed_tokens.weight", "BF16", {151936, 4096}, {}, ""},
                                       {"lm_head.weight", "BF16", {151936, 4096}, {}, ""}};
  for (int layer = 0; layer < 36; ++layer) {
    const std::string prefix = "model.layers." + std::to_string(layer) + ".self_attn.";
    tensors.push_back({prefix + "q_proj.weight", "BF16", {4096, 4096}, {}, ""});
    tensors.push_back({prefix + "k_proj.weight", "BF16", {1024, 4096}, {}, ""});
    tensors.push_back({prefix + "v_proj.weight", "BF16", {1024, 4096}, {}, ""});
    tensors.push_back({prefix + "o_proj.weight", "BF16", {4096, 4096}, {}, ""});
  }
  return tensors;
}
constexpr std::uint64_t kQwen3Parameters = 2ull * 151936 * 4096 + 36ull * (4096 + 1024 + 1024 + 4096) * 4096;
constexpr std::uint64_t kQwen3Bytes = 2 * kQwen3Parameters;  // 5,509,218,304

// <hub>/models--Qwen--Qwen3-8B at main: config.json and one model.safetensors, each a blob behind a symlink.
fs::path make_hub_with_single_file(const TempDir& dir) {
  const fs::path repo = fs::path(dir.file("hub")) / "models--Qwen--Qwen3-8B";
  cache_file(repo, kCommit, "config.json", read_file(source_path(kQwen3)));
  write_safetensors(cache_blob(repo, kCommit, "model.safetensors").string(), qwen3_8b_tensors());
  write_file((repo / "refs" / "main").string(), kCommit);
  return repo / "snapshots" / kCommit;
}

}  // namespace

TEST_CASE("inspect shows the exact bytes and parameters of a single model.safetensors in the hub cache",
          "[weights][locator]") {
  TempDir dir;
  const fs::path snapshot = make_hub_with_single_file(dir);
  ScopedEnv cache("HF_HUB_CACHE", dir.file("hub"));

  const auto text = run_cli("inspect Qwen/Qwen3-8B");
  REQUIRE(text.exit_code == 0);
  CHECK_THAT(text.out, Contains("weights                            5,509,218,304 bytes (5.13 GiB) derived: "
                                "safetensors headers of " +
                                (snapshot / "model.safetensors").string() + ": 146 tensors, tied storage once"));
  CHECK_THAT(text.out, Contains("parameters                         2,754,609,152"));

  const json inspected = json::parse(run_cli("inspect Qwen/Qwen3-8B --format json").out);
  CHECK(inspected["weights_bytes"]["value"] == kQwen3Bytes);
  CHECK(inspected["weights_parameters"]["value"] == kQwen3Parameters);
  CHECK(inspected["checkpoint"]["tensors"] == 146);
  CHECK(inspected["checkpoint"]["files"] == json::array({(snapshot / "model.safetensors").string()}));

  // --memory counts them: 5.13 GiB of weights + 18 GiB of bf16 KV cache at 131072 tokens.
  const auto memory = run_cli("check Qwen/Qwen3-8B --target 131072 --memory 20GiB --select CTX210 --format json");
  CHECK(memory.exit_code == 1);
  const json checked = json::parse(memory.out);
  const json& facts = checked["files"][0]["diagnostics"][0]["facts"];
  CHECK(facts["needed_bytes"].get<std::uint64_t>() - facts["kv_cache_bytes"].get<std::uint64_t>() == kQwen3Bytes);
  CHECK(facts["kv_cache_bytes"] == 19327352832ull);

  // The checkpoint agrees with its config: no CKPT finding.
  const auto consistent = run_cli("check Qwen/Qwen3-8B --select CKPT");
  CHECK(consistent.exit_code == 0);
}

TEST_CASE("a hostile model.safetensors beside a config is an error naming it, exit 2", "[weights][bad-input]") {
  TempDir dir;
  write_file(dir.file("model/config.json"), read_file(source_path(kQwen3)));
  write_file(dir.file("model/model.safetensors"), std::string("\x00\x00\x00\x00\x00\x00\x00\x10", 8) + "{}");
  const auto r = run_cli_in(dir.path(), "inspect model");
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Contains("model/model.safetensors: header length 1152921504606846976 exceeds the "
                             "100000000-byte limit"));
}

TEST_CASE("a memory budget without the weights' size says so and what the KV cache alone needs", "[weights][cli]") {
  // Qwen3-8B at 131072 tokens: 18 GiB of bf16 KV cache, which alone fits 24 GiB.
  const auto r = run_cli("check " + kQwen3 + " --target 131072 --memory 24GiB --select CTX210");
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.out, Contains("the weights' size is unknown (no model.safetensors or model.safetensors.index.json "
                             "beside the config): the KV cache 18.00 GiB at 131072 tokens (bf16) alone leaves "
                             "6.00 GiB of the memory budget 24.00 GiB for the weights"));
}
