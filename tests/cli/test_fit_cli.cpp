// `ropelens fit` end to end: Llama-3.1-8B beside a sparse model.safetensors of its real size (16,060,522,496 bytes),
// the flags that give each engine's length, --reserve, JSON, and the refusal when the weights' size is unknown.
#include <filesystem>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "gguf_writer.hpp"
#include "safetensors_writer.hpp"
#include "support.hpp"

using Catch::Matchers::Contains;
using nlohmann::json;
using ropelens::test::read_file;
using ropelens::test::run_cli;
using ropelens::test::source_path;
using ropelens::test::TempDir;
using ropelens::test::write_file;

namespace {

const std::string kFitLlama = "testdata/fit/llama-3.1-8b/config.json";

// The config with one BF16 tensor of 8,030,261,248 values beside it: the weights' 16,060,522,496 bytes, sparse.
std::string llama_with_weights(const TempDir& dir) {
  write_file(dir.file("config.json"), read_file(source_path(kFitLlama)));
  ropelens::test::write_safetensors(dir.file("model.safetensors"),
                                    {{"model.weights", "BF16", {8'030'261'248ULL}, {}, ""}});
  return dir.file("config.json");
}

json fit_json(const std::string& arguments) {
  const auto run = run_cli("fit " + arguments + " --format json");
  INFO(run.err);
  REQUIRE(run.exit_code == 0);
  return json::parse(run.out);
}

}  // namespace

TEST_CASE("fit cli: Llama-3.1-8B bf16 in 24 GiB, per engine", "[fit][cli]") {
  TempDir dir;
  const std::string config = llama_with_weights(dir);
  const json out = fit_json(config + " --memory 24GiB --reserve 0");
  CHECK(out["weights_bytes"] == 16'060'522'496ULL);
  CHECK(out["gpus"] == 1);
  // 131,072 bytes per token. transformers: 24 GiB − weights = 9,709,281,280 bytes, 74,075.35 tokens.
  CHECK(out["engines"]["transformers"]["bf16"]["kv_budget_bytes"] == 9'709'281'280ULL);
  CHECK(out["engines"]["transformers"]["bf16"]["max_tokens"] == 74075);
  // vLLM: floor(24 GiB × 0.92) − weights = 7,647,696,977 bytes, 58,347.3 tokens, in blocks of 16.
  CHECK(out["engines"]["vllm"]["bf16"]["memory_share"] == 0.92);
  CHECK(out["engines"]["vllm"]["bf16"]["kv_budget_bytes"] == 7'647'696'977ULL);
  CHECK(out["engines"]["vllm"]["bf16"]["max_tokens"] == 58336);
  // SGLang: floor(24 GiB × 0.833) − weights = 5,405,724,049 bytes, 41,242.4 tokens, pages of 1.
  CHECK(out["engines"]["sglang"]["bf16"]["memory_share"] == 0.833);
  CHECK(out["engines"]["sglang"]["bf16"]["max_tokens"] == 41242);
  CHECK(out["engines"]["llama.cpp"]["bf16"]["max_tokens"] == 73984);  // 74,075 cells padded down to 256
  for (const char* engine : {"transformers", "vllm", "sglang", "llama.cpp"}) {
    INFO(engine);
    CHECK(out["engines"][engine]["bf16"]["limited_by"] == "memory");
  }

  const auto text = run_cli("fit " + config + " --memory 24GiB --reserve 0");
  REQUIRE(text.exit_code == 0);
  // The commands name the model's folder, and each engine's default share, never 1.
  CHECK_THAT(text.out, Contains("vllm serve " + dir.path() +
                                " --max-model-len 58336 --kv-cache-dtype auto --gpu-memory-utilization 0.92"));
  CHECK_THAT(text.out, Contains("python -m sglang.launch_server --model-path " + dir.path() +
                                " --context-length 41242 --kv-cache-dtype auto --mem-fraction-static 0.833"));
  CHECK_THAT(text.out, Contains("llama-server -m MODEL.gguf -c 73984 --cache-type-k bf16 --cache-type-v bf16"));
  CHECK_THAT(text.out,
             !Contains("<model>") && !Contains("--gpu-memory-utilization 1") && !Contains("--mem-fraction-static 1"));
  CHECK_THAT(text.out, Contains("not counted:") && Contains("activations") && Contains("CUDA graphs") &&
                           Contains("give --reserve SIZE or PERCENT"));
}

TEST_CASE("fit cli: 80 GiB reaches the declared length", "[fit][cli]") {
  TempDir dir;
  const json out = fit_json(llama_with_weights(dir) + " --memory 80GiB");
  for (const char* engine : {"transformers", "vllm", "sglang", "llama.cpp"}) {
    INFO(engine);
    CHECK(out["engines"][engine]["bf16"]["max_tokens"] == 131072);
    CHECK(out["engines"][engine]["bf16"]["limited_by"] == "declared");
  }
  CHECK(out["rope_tokens"] == 131072);
}

TEST_CASE("fit cli: --reserve 10% and a size", "[fit][cli]") {
  TempDir dir;
  const std::string config = llama_with_weights(dir);
  // ceil(0.1 × 24 GiB) = 2,576,980,378 bytes aside from vLLM's 23,708,219,473: 5,070,716,599 left for the cache,
  // 38,686.5 tokens, 38,672 in blocks of 16. The printed share stays vLLM's: the reserve is within it.
  const json share = fit_json(config + " --memory 24GiB --reserve 10% --engine vllm");
  CHECK(share["reserve_bytes"] == 2'576'980'378ULL);
  CHECK(share["engines"]["vllm"]["bf16"]["kv_budget_bytes"] == 5'070'716'599ULL);
  CHECK(share["engines"]["vllm"]["bf16"]["max_tokens"] == 38672);
  CHECK(share["engines"]["vllm"]["bf16"]["serve"] == "vllm serve " + dir.path() +
                                                         " --max-model-len 38672 --kv-cache-dtype auto "
                                                         "--gpu-memory-utilization 0.92");
  CHECK_FALSE(share["engines"].contains("sglang"));
  // 2 GiB aside: 7,562,038,016 bytes left, 57,693.7 tokens; llama.cpp pads to 256: 57,600.
  const json size = fit_json(config + " --memory 24GiB --reserve 2GiB --engine llama.cpp");
  CHECK(size["engines"]["llama.cpp"]["bf16"]["max_tokens"] == 57600);
}

TEST_CASE("fit cli: unknown weights are refused unless --weights gives them", "[fit][cli]") {
  const auto refused = run_cli("fit " + kFitLlama + " --memory 24GiB");
  CHECK(refused.exit_code == 2);
  CHECK(refused.out.empty());
  CHECK_THAT(refused.err, Contains(kFitLlama + ": the weights' size is unknown") && Contains("--weights SIZE"));
  CHECK(std::count(refused.err.begin(), refused.err.end(), '\n') == 1);

  const json given = fit_json(kFitLlama + " --memory 24GiB --weights 16060522496B");
  CHECK(given["weights_bytes"] == 16'060'522'496ULL);
  CHECK(given["weights_from"] == "derived: --weights");
  CHECK(given["engines"]["vllm"]["bf16"]["max_tokens"] == 58336);
}

TEST_CASE("fit cli: bad values are one-line usage errors", "[fit][cli]") {
  CHECK_THAT(run_cli("fit " + kFitLlama + " --memory lots --weights 1GB").err, Contains("--memory"));
  CHECK_THAT(run_cli("fit " + kFitLlama + " --memory 24GiB --weights 1GB --reserve 120%").err,
             Contains("--reserve 120%: a share is a number from 0 to 100 followed by %"));
  CHECK_THAT(run_cli("fit " + kFitLlama + " --memory 1GiB --weights 1GB --reserve 2GiB").err,
             Contains("--reserve 2GiB is more than --memory 1.00 GiB"));
  CHECK(run_cli("fit " + kFitLlama + " --weights 1GB").exit_code == 2);  // --memory is required
}

TEST_CASE("fit cli: a GGUF's tensors are its weights", "[fit][cli][gguf]") {
  TempDir dir;
  ropelens::test::GgufWriter w = ropelens::test::llama_like("llama", 4096, 2, 512, 4);
  w.u32("llama.attention.head_count_kv", 2);
  for (const char* name : {"blk.0.attn_k.weight", "blk.1.attn_k.weight"})
    w.tensor({name, {512, 256}, ropelens::test::kGgmlF16, std::string(262144, '\0'), std::nullopt});
  w.write(dir.file("model.gguf"));
  // Weights: 2 × 512 × 256 F16 values = 524,288 bytes. The f16 cache (llama.cpp's default for a GGUF): 2 layers ×
  // 2 heads × 128 × (K + V) × 2 bytes = 2,048 bytes per token; 524,288 + 2,048 × 1,000 = 2,572,288 bytes of memory.
  const json out = fit_json(dir.file("model.gguf") + " --memory 2572288B --engine llama.cpp");
  CHECK(out["weights_bytes"] == 524288);
  CHECK(out["engines"]["llama.cpp"]["f16"]["weights_bytes"] == 524288);  // llama.cpp runs the file's own blocks
  CHECK(out["engines"]["llama.cpp"]["f16"]["max_tokens"] == 768);        // 1,000 cells padded down to 256
  // The GGUF is the model llama-server loads: the command names it.
  CHECK(out["engines"]["llama.cpp"]["f16"]["serve"] ==
        "llama-server -m " + dir.file("model.gguf") + " -c 768 --cache-type-k f16 --cache-type-v f16");

  const auto inspect = run_cli("inspect " + dir.file("model.gguf") + " --format json");
  REQUIRE(inspect.exit_code == 0);
  const json model = json::parse(inspect.out);
  CHECK(model["weights_parameters"]["value"] == 262144);
}

TEST_CASE("fit cli: report --memory adds fit's text to the model's section", "[fit][cli][report]") {
  TempDir dir;
  const std::string config = llama_with_weights(dir);
  const auto run = run_cli("report " + config + " --memory 24GiB --exit-zero -q -o " + dir.file("r.html"));
  REQUIRE(run.exit_code == 0);
  const std::string page = read_file(dir.file("r.html"));
  CHECK_THAT(page, Contains("<h3>Fit in 24.00 GiB</h3>") && Contains("--max-model-len 58336") &&
                       Contains("-c 73984 --cache-type-k bf16"));
  // Without weights the section says why there is no figure.
  const auto refused = run_cli("report " + kFitLlama + " --memory 24GiB --exit-zero -q -o " + dir.file("s.html"));
  REQUIRE(refused.exit_code == 0);
  CHECK_THAT(read_file(dir.file("s.html")), Contains("<h3>Fit</h3>") && Contains("the weights&#39; size is unknown"));
  CHECK_THAT(read_file(dir.file("r.html")), !Contains("<h3>Fit</h3>"));
}

TEST_CASE("fit cli: --stack and the settings file's stack keep only those engines", "[fit][cli][stack]") {
  TempDir dir;
  const std::string config = llama_with_weights(dir);
  const json pinned = fit_json(config + " --memory 24GiB --reserve 0 --stack vllm");
  REQUIRE(pinned["engines"].size() == 1);
  CHECK(pinned["engines"]["vllm"]["bf16"]["max_tokens"] == 58336);

  write_file(dir.file(".ropelens.json"), R"({"stack": ["llama.cpp", "sglang"]})");
  const auto run = ropelens::test::run_shell("cd '" + dir.path() + "' && " + ropelens::test::binary() +
                                             " fit config.json --memory 24GiB --reserve 0 --format json");
  INFO(run.err);
  REQUIRE(run.exit_code == 0);
  const json settled = json::parse(run.out);
  CHECK(settled["engines"].size() == 2);
  CHECK(settled["engines"]["llama.cpp"]["bf16"]["max_tokens"] == 73984);
  CHECK(settled["engines"]["sglang"]["bf16"]["max_tokens"] == 41242);
}

TEST_CASE("fit cli: weights over the budget are an error-level answer that exits 1", "[fit][cli]") {
  TempDir dir;
  const std::string config = llama_with_weights(dir);
  // 16,060,522,496 bytes of weights in 8 GiB = 8,589,934,592: no engine fits a token.
  const auto run = run_cli("fit " + config + " --memory 8GiB");
  CHECK(run.exit_code == 1);
  CHECK_THAT(run.out, Contains("error: the weights alone exceed what transformers (8.00 GiB of it), vLLM (7.36 GiB of "
                               "it), SGLang (4.03 GiB of it), llama.cpp (8.00 GiB of it) may use of the 8.00 GiB GPU: "
                               "no context fits"));
  CHECK_THAT(run.out, !Contains("serve:"));  // no command for a length that does not fit
  const auto json_run = run_cli("fit " + config + " --memory 8GiB --format json");
  CHECK(json_run.exit_code == 1);
  const json out = json::parse(json_run.out);
  for (const char* engine : {"transformers", "vllm", "sglang", "llama.cpp"}) {
    INFO(engine);
    CHECK(out["engines"][engine]["bf16"]["limited_by"] == "weights");
    CHECK(out["engines"][engine]["bf16"]["max_tokens"] == 0);
  }
}

TEST_CASE("fit cli: --tp 2 --memory 10GiB gives one GPU's figure, bound by memory", "[fit][cli][tp]") {
  TempDir dir;
  const std::string config = llama_with_weights(dir);
  // floor(10 GiB × 0.92) = 9,878,424,780 bytes less half the weights (8,030,261,248) = 1,848,163,532 for the cache;
  // 4 of the 8 KV heads per GPU: 65,536 bytes per token, 28,200.7 tokens, 28,192 in blocks of 16.
  const json out = fit_json(config + " --memory 10GiB --tp 2 --stack vllm");
  CHECK(out["gpus"] == 2);
  CHECK(out["memory_bytes"] == 10'737'418'240ULL);
  const json& vllm = out["engines"]["vllm"]["bf16"];
  CHECK(vllm["weights_bytes"] == 8'030'261'248ULL);
  CHECK(vllm["kv_budget_bytes"] == 1'848'163'532ULL);
  CHECK(vllm["max_tokens"] == 28192);
  CHECK(vllm["limited_by"] == "memory");
  CHECK(vllm["serve"] == "vllm serve " + dir.path() +
                             " --max-model-len 28192 --kv-cache-dtype auto --gpu-memory-utilization 0.92 "
                             "--tensor-parallel-size 2");
  const auto text = run_cli("fit " + config + " --memory 10GiB --tp 2 --stack vllm");
  CHECK_THAT(text.out, Contains("memory 10.00 GiB (10,737,418,240 bytes) per GPU, 2 GPUs (--tp 2)"));
  // On one such GPU the weights do not fit at all.
  CHECK(run_cli("fit " + config + " --memory 10GiB --stack vllm").exit_code == 1);
}

TEST_CASE("fit cli: a float32 checkpoint is served in bf16 by vLLM, f16 by SGLang, f32 by transformers",
          "[fit][cli][dtype]") {
  TempDir dir;
  auto config = json::parse(read_file(source_path(kFitLlama)));
  config["torch_dtype"] = "float32";
  write_file(dir.file("config.json"), config.dump(2));
  // The same 8,030,261,248 values in F32: 32,121,044,992 bytes on disk.
  ropelens::test::write_safetensors(dir.file("model.safetensors"),
                                    {{"model.weights", "F32", {8'030'261'248ULL}, {}, ""}});
  const auto run = run_cli("fit " + dir.file("config.json") + " --memory 24GiB --format json");
  CHECK(run.exit_code == 1);  // transformers keeps float32: 32 GB of weights do not fit 24 GiB
  const json out = json::parse(run.out);
  CHECK(out["weights_bytes"] == 32'121'044'992ULL);
  // vLLM loads it as bf16 (half the bytes) and caches in bf16: the bf16 figures, 58,336 tokens, not an f32 estimate.
  REQUIRE(out["engines"]["vllm"].contains("bf16"));
  CHECK_FALSE(out["engines"]["vllm"].contains("f32"));
  CHECK(out["engines"]["vllm"]["bf16"]["weights_bytes"] == 16'060'522'496ULL);
  CHECK_THAT(out["engines"]["vllm"]["bf16"]["weights_from"].get<std::string>(),
             Contains("loaded as bf16 from float32 (× 0.5)"));
  CHECK(out["engines"]["vllm"]["bf16"]["max_tokens"] == 58336);
  CHECK_THAT(out["engines"]["vllm"]["bf16"]["serve"].get<std::string>(), Contains("--kv-cache-dtype auto"));
  // SGLang serves float32 as float16: the same bytes, 41,242 tokens.
  CHECK(out["engines"]["sglang"]["f16"]["max_tokens"] == 41242);
  CHECK(out["engines"]["transformers"]["f32"]["limited_by"] == "weights");
  CHECK(out["engines"]["llama.cpp"]["f32"]["limited_by"] == "weights");
}

TEST_CASE("fit cli: transformers dequantizes a GGUF file, so its weights are counted in f32", "[fit][cli][gguf]") {
  TempDir dir;
  ropelens::test::GgufWriter w = ropelens::test::llama_like("llama", 4096, 2, 512, 4);
  w.u32("llama.attention.head_count_kv", 2);
  for (const char* name : {"blk.0.attn_k.weight", "blk.1.attn_k.weight"})
    w.tensor({name, {512, 256}, ropelens::test::kGgmlF16, std::string(262144, '\0'), std::nullopt});
  w.write(dir.file("model.gguf"));
  // 262,144 parameters × 4 bytes = 1,048,576 bytes of f32 weights (the file holds 524,288 in F16); the f32 cache is
  // 2 layers × 2 heads × 128 × (K + V) × 4 bytes = 4,096 bytes per token: (2,572,288 − 1,048,576) / 4,096 = 372.
  const json out = fit_json(dir.file("model.gguf") + " --memory 2572288B --engine transformers");
  const json& transformers = out["engines"]["transformers"]["f32"];
  CHECK(transformers["weights_bytes"] == 1'048'576);
  CHECK_THAT(transformers["weights_from"].get<std::string>(),
             Contains("transformers dequantizes the GGUF file on load: 262144 parameters × 4 bytes (f32)"));
  CHECK(transformers["max_tokens"] == 372);
}

TEST_CASE("fit cli: the length fit gives each engine passes check --memory, one granule more does not",
          "[fit][cli][check]") {
  TempDir dir;
  const std::string config = llama_with_weights(dir);
  const json out = fit_json(config + " --memory 24GiB");
  const auto ctx210 = [&](const std::string& engine, std::int64_t target) {
    const auto run = run_cli("check " + config + " --stack " + engine + " --target " + std::to_string(target) +
                             " --memory 24GiB --select CTX210 --format json");
    INFO(run.err);
    REQUIRE(run.exit_code != 2);
    return json::parse(run.out)["files"][0]["diagnostics"].size();
  };
  for (const char* engine : {"transformers", "vllm", "sglang", "llama.cpp"}) {
    INFO(engine);
    const json& fit = out["engines"][engine]["bf16"];
    const std::int64_t tokens = fit["max_tokens"];
    CHECK(ctx210(engine, tokens) == 0);
    CHECK(ctx210(engine, tokens + fit["granularity_tokens"].get<std::int64_t>()) == 1);
  }
  // And with tensor parallelism: vLLM's 28,192 tokens on two 10 GiB GPUs.
  const auto tp = [&](std::int64_t target) {
    const auto run = run_cli("check " + config + " --stack vllm --tp 2 --memory 10GiB --target " +
                             std::to_string(target) + " --select CTX210 --format json");
    REQUIRE(run.exit_code != 2);
    return json::parse(run.out)["files"][0]["diagnostics"].size();
  };
  CHECK(tp(28192) == 0);
  CHECK(tp(28208) == 1);
}
