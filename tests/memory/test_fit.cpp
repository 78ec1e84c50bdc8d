// fit: the longest context per engine and KV dtype whose weights plus KV cache fit a memory budget. Every figure is
// (memory − reserve − weights) over the engine's own cache layout, worked out by hand below.
#include <catch2/catch.hpp>

#include "model_support.hpp"
#include "ropelens/audit/reach.hpp"
#include "ropelens/memory/fit.hpp"
#include "ropelens/report/fit_report.hpp"

using ropelens::Engine;
using ropelens::EngineFit;
using ropelens::FitLimit;
using ropelens::FitReport;
using ropelens::FitRequest;
using ropelens::KvDtype;
using ropelens::test::load;

namespace {

constexpr std::uint64_t kGiB = 1ULL << 30;
constexpr std::uint64_t kLlama8bWeights = 16'060'522'496ULL;  // Llama-3.1-8B's metadata.total_size (bf16)
constexpr const char* kLlama = "testdata/fit/llama-3.1-8b/config.json";

FitReport fit(const std::string& config, std::uint64_t memory, std::uint64_t weights, std::uint64_t reserve = 0,
              std::vector<KvDtype> dtypes = {}) {
  FitRequest request;
  request.memory_bytes = memory;
  request.reserve = {reserve, reserve == 0 ? "" : "test"};
  request.weights_bytes = weights;
  request.dtypes = std::move(dtypes);
  return ropelens::fit_model(load(config), request);
}

const EngineFit& of(const FitReport& report, Engine engine, KvDtype dtype) {
  for (const auto& f : report.fits)
    if (f.engine == engine && f.dtype == dtype) return f;
  FAIL("no fit for " << to_string(engine) << " " << to_string(dtype));
  return report.fits.front();
}

}  // namespace

TEST_CASE("fit: Llama-3.1-8B bf16 in 24 GiB is memory-bound, rounded to each engine's granularity", "[fit]") {
  const FitReport report = fit(kLlama, 24 * kGiB, kLlama8bWeights);
  // 24 GiB − weights = 25,769,803,776 − 16,060,522,496 = 9,709,281,280 bytes for the KV cache;
  // 32 layers × 8 heads × 128 × (K + V) × 2 bytes = 131,072 bytes per token: 74,075.35 tokens.
  CHECK(report.fits.front().kv_budget == 9'709'281'280ULL);
  CHECK(report.declared.value == 131072);
  CHECK(report.rope_tokens == 131072);  // the llama3 extension covers the declared length
  const EngineFit& transformers = of(report, Engine::transformers, KvDtype::bf16);
  CHECK(transformers.max_tokens == 74075);  // token by token
  CHECK(transformers.kv_bytes == 74075ULL * 131072);
  CHECK(transformers.limited_by == FitLimit::memory);
  const EngineFit& vllm = of(report, Engine::vllm, KvDtype::bf16);
  CHECK(vllm.max_tokens == 74064);  // blocks of 16: 4629 blocks
  CHECK(vllm.granularity == 16);
  CHECK(vllm.limited_by == FitLimit::memory);
  CHECK(vllm.serve_command ==
        "vllm serve <model> --max-model-len 74064 --kv-cache-dtype auto --gpu-memory-utilization 1");
  const EngineFit& sglang = of(report, Engine::sglang, KvDtype::bf16);
  CHECK(sglang.max_tokens == 74075);  // pages of 1
  CHECK(sglang.granularity == 1);
  CHECK(sglang.serve_command ==
        "python -m sglang.launch_server --model-path <model> --context-length 74075 --kv-cache-dtype auto "
        "--mem-fraction-static 1");
  const EngineFit& llama_cpp = of(report, Engine::llama_cpp, KvDtype::bf16);
  CHECK(llama_cpp.max_tokens == 73984);  // 289 pads of 256 cells
  CHECK(llama_cpp.granularity == 256);
  CHECK(llama_cpp.serve_command == "llama-server -m <model>.gguf -c 73984 --cache-type-k bf16 --cache-type-v bf16");
}

TEST_CASE("fit: Llama-3.1-8B in 80 GiB reaches its declared length", "[fit]") {
  const FitReport report = fit(kLlama, 80 * kGiB, kLlama8bWeights);
  // 85,899,345,920 − 16,060,522,496 = 69,838,823,424 bytes hold 532,827 tokens: more than the 131,072 declared.
  for (const auto& f : report.fits) {
    INFO(to_string(f.engine));
    CHECK(f.max_tokens == 131072);
    CHECK(f.limited_by == FitLimit::declared);
    CHECK(f.kv_bytes == 17'179'869'184ULL);
  }
}

TEST_CASE("fit: --reserve 10% sets a tenth of the memory aside", "[fit]") {
  // ceil(0.1 × 25,769,803,776) = 2,576,980,378; 25,769,803,776 − 2,576,980,378 − 16,060,522,496 = 7,132,300,902
  // bytes: 54,415.1 tokens of 131,072 bytes.
  const FitReport report = fit(kLlama, 24 * kGiB, kLlama8bWeights, 2'576'980'378ULL);
  CHECK(report.fits.front().kv_budget == 7'132'300'902ULL);
  CHECK(of(report, Engine::transformers, KvDtype::bf16).max_tokens == 54415);
  CHECK(of(report, Engine::vllm, KvDtype::bf16).max_tokens == 54400);
  CHECK(of(report, Engine::sglang, KvDtype::bf16).max_tokens == 54415);
  CHECK(of(report, Engine::llama_cpp, KvDtype::bf16).max_tokens == 54272);
}

TEST_CASE("fit: each KV dtype an engine offers, and none it does not", "[fit]") {
  const FitReport report = fit(kLlama, 24 * kGiB, kLlama8bWeights, 0, {KvDtype::fp8, KvDtype::q8_0});
  // fp8: 65,536 bytes per token, 148,150.7 tokens: the declared length binds.
  CHECK(of(report, Engine::vllm, KvDtype::fp8).max_tokens == 131072);
  CHECK(of(report, Engine::vllm, KvDtype::fp8).serve_command.find("--kv-cache-dtype fp8 ") != std::string::npos);
  CHECK(of(report, Engine::sglang, KvDtype::fp8).serve_command.find("--kv-cache-dtype fp8_e4m3 ") != std::string::npos);
  CHECK(of(report, Engine::llama_cpp, KvDtype::fp8).unsupported);
  // q8_0: 1024 values in 32 blocks of 34 bytes, × 2 × 32 layers = 69,632 bytes per token: 139,437 tokens.
  CHECK(of(report, Engine::llama_cpp, KvDtype::q8_0).max_tokens == 131072);
  CHECK(of(report, Engine::vllm, KvDtype::q8_0).unsupported);
  CHECK(of(report, Engine::sglang, KvDtype::q8_0).unsupported);
}

TEST_CASE("fit: an MLA model caches its latent, (kv_lora_rank + qk_rope_head_dim) × layers", "[fit][mla]") {
  // DeepSeek-V3: (512 + 64) × 61 layers × 2 bytes = 70,272 bytes per token; 10 GiB = 10,737,418,240 bytes hold
  // 152,797.8 tokens, below the declared 163,840.
  const FitReport report = fit("testdata/configs/deepseek/deepseek-v3.json", 610 * kGiB, 600 * kGiB);
  CHECK(report.fits.front().kv_budget == 10 * kGiB);
  CHECK(of(report, Engine::sglang, KvDtype::bf16).max_tokens == 152797);
  CHECK(of(report, Engine::vllm, KvDtype::bf16).max_tokens == 152784);
  CHECK(of(report, Engine::llama_cpp, KvDtype::bf16).max_tokens == 152576);
  CHECK(of(report, Engine::sglang, KvDtype::bf16).kv_bytes == 152797ULL * 70272);
  // transformers keeps full K and V per head: 128 × (192 + 128) × 2 bytes × 61 layers = 4,997,120 per token.
  CHECK(of(report, Engine::transformers, KvDtype::bf16).max_tokens == 2148);
}

TEST_CASE("fit: sliding layers keep their window, so full layers take the rest", "[fit][window]") {
  // MedGemma 27B (Gemma 3): 62 layers, 52 sliding (window 1024) and 10 full, 16 KV heads × 128 × (K + V) × 2 bytes
  // = 8,192 bytes per layer and token; 8 GiB = 8,589,934,592 bytes for the cache.
  const FitReport report = fit("testdata/configs/gemma/medgemma-27b-it.json", 58 * kGiB, 50 * kGiB);
  REQUIRE(report.fits.front().kv_budget == 8 * kGiB);
  // transformers: sliding layers keep 1023 tokens: (8,589,934,592 − 52 × 8,192 × 1,023) / (10 × 8,192) = 99,538.
  CHECK(of(report, Engine::transformers, KvDtype::bf16).max_tokens == 99538);
  // vLLM: (cdiv(1023 + 8192, 16) + 1) × 16 = 9,232 tokens per sliding layer, 3,932,684,288 bytes;
  // 4,657,250,304 / 81,920 = 56,851.2, in blocks of 16: 56,848.
  CHECK(of(report, Engine::vllm, KvDtype::bf16).max_tokens == 56848);
  // llama.cpp: 1024 + 512 = 1,536 cells per sliding layer, 654,311,424 bytes; 7,935,623,168 / 81,920 = 96,870.4,
  // padded to 256: 96,768.
  CHECK(of(report, Engine::llama_cpp, KvDtype::bf16).max_tokens == 96768);
  // SGLang's sliding pool is 0.8 of the full one, not a window: 81,920 N + 425,984 int(0.8 N) ≤ 8 GiB at N = 20,321.
  CHECK(of(report, Engine::sglang, KvDtype::bf16).max_tokens == 20321);
}

TEST_CASE("fit: without the weights' size it refuses", "[fit]") {
  FitRequest request;
  request.memory_bytes = 24 * kGiB;
  CHECK_THROWS_AS(ropelens::fit_model(load(kLlama), request), ropelens::FitRefused);
  CHECK_THROWS_WITH(ropelens::fit_model(load(kLlama), request),
                    Catch::Contains("the weights' size is unknown") && Catch::Contains("--weights SIZE"));
}

TEST_CASE("fit: weights larger than the memory leave no token", "[fit]") {
  const FitReport report = fit(kLlama, 8 * kGiB, kLlama8bWeights);
  CHECK(report.fits.front().kv_budget == 0);
  for (const auto& f : report.fits) {
    CHECK(f.max_tokens == 0);
    CHECK(f.limited_by == FitLimit::memory);
  }
}

TEST_CASE("fit: the in-range length of a model without scaling is its trained length", "[fit][rope]") {
  // Mixtral without scaling, trained at 32,768: the slowest pair leaves the angles seen in training once
  // (T − 1) exceeds 1.001 × 32,767 = 32,799.8 (the audit's tolerance), so T = 32,800 is the last length in range.
  const auto model = load("testdata/configs/mistral/mixtral-8x7b-v0.1.json");
  const auto reach = ropelens::longest_in_range(model, 1048576, {nullptr, {32768, std::nullopt}});
  REQUIRE(reach);
  CHECK(*reach == 32800);
  CHECK(ropelens::longest_in_range(model, 32768, {nullptr, {32768, std::nullopt}}) == 32768);
}

TEST_CASE("fit: a length beyond the angles seen in training is capped there (limited by rope)", "[fit][rope]") {
  // Linear factor 0.5 doubles every angle: L_P = 4096, so (T − 1) × 2θ ≤ 1.001 × 4095 θ holds up to T − 1 = 2049.5:
  // T = 2050, below the declared 4096. Memory (80 GiB) does not bind.
  const FitReport report = fit("testdata/configs/synthetic/bad-values.json", 80 * kGiB, 1'000'000'000ULL);
  CHECK(report.declared.value == 4096);
  CHECK(report.rope_tokens == 2050);
  for (const auto& f : report.fits) {
    INFO(to_string(f.engine));
    CHECK(f.max_tokens == 2050);
    CHECK(f.limited_by == FitLimit::rope);
  }
  CHECK(of(report, Engine::vllm, KvDtype::bf16).serve_command.find("--max-model-len 2050 ") != std::string::npos);
}
