// fit: the longest context per engine and KV dtype whose weights plus KV cache fit a memory budget. Every figure is
// (floor(memory × the engine's share) − reserve − weights) over the engine's own cache layout, worked out by hand
// below: vLLM takes 0.92 of a GPU, SGLang its computed mem_fraction_static, transformers and llama.cpp all of it.
#include <catch2/catch.hpp>

#include "model_support.hpp"
#include "ropelens/audit/reach.hpp"
#include "ropelens/engines/kv_cache.hpp"
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
  CHECK(report.declared.value == 131072);
  CHECK(report.rope_tokens == 131072);  // the llama3 extension covers the declared length
  CHECK_FALSE(report.weights_exceed());
  // 32 layers × 8 heads × 128 × (K + V) × 2 bytes = 131,072 bytes per token.
  // transformers takes the whole GPU: 25,769,803,776 − 16,060,522,496 = 9,709,281,280 bytes: 74,075.35 tokens.
  const EngineFit& transformers = of(report, Engine::transformers, KvDtype::bf16);
  CHECK(transformers.share.fraction == 1.0);
  CHECK(transformers.usable_bytes == 25'769'803'776ULL);
  CHECK(transformers.kv_budget == 9'709'281'280ULL);
  CHECK(transformers.max_tokens == 74075);  // token by token
  CHECK(transformers.kv_bytes == 74075ULL * 131072);
  CHECK(transformers.limited_by == FitLimit::memory);
  CHECK(transformers.serve_command.empty());
  // vLLM takes 0.92: floor(25,769,803,776 × 0.92) = 23,708,219,473; − weights = 7,647,696,977 bytes: 58,347.3
  // tokens, in blocks of 16: 58,336.
  const EngineFit& vllm = of(report, Engine::vllm, KvDtype::bf16);
  CHECK(vllm.share.fraction == 0.92);
  CHECK(vllm.usable_bytes == 23'708'219'473ULL);
  CHECK(vllm.kv_budget == 7'647'696'977ULL);
  CHECK(vllm.max_tokens == 58336);
  CHECK(vllm.granularity == 16);
  CHECK(vllm.limited_by == FitLimit::memory);
  CHECK(vllm.serve_command ==
        "vllm serve MODEL --max-model-len 58336 --kv-cache-dtype auto --gpu-memory-utilization 0.92");
  // SGLang at 24,576 MiB: chunked prefill 2048, max_bs 24, 42 prefill graph sizes: 512 + 1.5 × 2048 + 1/8 × 1024
  // + 2 × 24 + 8 × 42 = 4,096 MiB reserved, round(20,480 / 24,576, 3) = 0.833; floor(25,769,803,776 × 0.833) =
  // 21,466,246,545; − weights = 5,405,724,049 bytes: 41,242.4 tokens (pages of 1).
  const EngineFit& sglang = of(report, Engine::sglang, KvDtype::bf16);
  CHECK(sglang.share.fraction == 0.833);
  CHECK(sglang.usable_bytes == 21'466'246'545ULL);
  CHECK(sglang.kv_budget == 5'405'724'049ULL);
  CHECK(sglang.max_tokens == 41242);
  CHECK(sglang.granularity == 1);
  CHECK(sglang.serve_command ==
        "python -m sglang.launch_server --model-path MODEL --context-length 41242 --kv-cache-dtype auto "
        "--mem-fraction-static 0.833");
  // llama.cpp takes the whole GPU: 74,075 tokens, padded down to 289 pads of 256 cells.
  const EngineFit& llama_cpp = of(report, Engine::llama_cpp, KvDtype::bf16);
  CHECK(llama_cpp.max_tokens == 73984);
  CHECK(llama_cpp.granularity == 256);
  CHECK(llama_cpp.serve_command == "llama-server -m MODEL.gguf -c 73984 --cache-type-k bf16 --cache-type-v bf16");
}

TEST_CASE("fit: the model's id or path replaces the placeholder in every printed command", "[fit]") {
  FitRequest request;
  request.memory_bytes = 24 * kGiB;
  request.weights_bytes = kLlama8bWeights;
  request.model_word = "meta-llama/Llama-3.1-8B-Instruct";
  const FitReport report = ropelens::fit_model(load(kLlama), request);
  CHECK(of(report, Engine::vllm, KvDtype::bf16).serve_command ==
        "vllm serve meta-llama/Llama-3.1-8B-Instruct --max-model-len 58336 --kv-cache-dtype auto "
        "--gpu-memory-utilization 0.92");
  CHECK(of(report, Engine::sglang, KvDtype::bf16).serve_command ==
        "python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --context-length 41242 "
        "--kv-cache-dtype auto --mem-fraction-static 0.833");
  // A config is not a GGUF file: llama-server keeps its placeholder.
  CHECK(of(report, Engine::llama_cpp, KvDtype::bf16).serve_command ==
        "llama-server -m MODEL.gguf -c 73984 --cache-type-k bf16 --cache-type-v bf16");
  for (const auto& f : report.fits) CHECK(f.serve_command.find('<') == std::string::npos);
}

TEST_CASE("fit: --tp 2 --memory 10GiB is one GPU's figure, bound by memory", "[fit][tp]") {
  FitRequest request;
  request.memory_bytes = 10 * kGiB;
  request.gpus = 2;
  request.weights_bytes = kLlama8bWeights;
  const FitReport report = ropelens::fit_model(load(kLlama), request);
  CHECK(report.gpus == 2);
  // vLLM: floor(10,737,418,240 × 0.92) = 9,878,424,780; half the weights, 8,030,261,248, leave 1,848,163,532 bytes;
  // 4 of the 8 KV heads per GPU: 65,536 bytes per token, 28,200.7 tokens, in blocks of 16: 28,192.
  const EngineFit& vllm = of(report, Engine::vllm, KvDtype::bf16);
  CHECK(vllm.usable_bytes == 9'878'424'780ULL);
  CHECK(vllm.weights_bytes == 8'030'261'248ULL);
  CHECK(vllm.kv_budget == 1'848'163'532ULL);
  CHECK(vllm.max_tokens == 28192);
  CHECK(vllm.kv_bytes == 28192ULL * 65536);
  CHECK(vllm.limited_by == FitLimit::memory);
  CHECK(vllm.serve_command ==
        "vllm serve MODEL --max-model-len 28192 --kv-cache-dtype auto --gpu-memory-utilization 0.92 "
        "--tensor-parallel-size 2");
  // transformers and llama.cpp split whole layers: half the cache, 65,536 bytes per token, in all of the GPU:
  // 10,737,418,240 − 8,030,261,248 = 2,707,156,992 bytes, 41,307.7 tokens (llama.cpp: 41,216, padded to 256).
  CHECK(of(report, Engine::transformers, KvDtype::bf16).max_tokens == 41307);
  CHECK(of(report, Engine::llama_cpp, KvDtype::bf16).max_tokens == 41216);
  // SGLang at 10,240 MiB, tp 2: 512 + 3,072 + 256 + 16 + 336 = 4,192 MiB reserved, round(6,048 / 10,240, 3) = 0.591;
  // floor(10,737,418,240 × 0.591) = 6,345,814,179 bytes cannot hold 8,030,261,248 of weights: an error-level answer.
  const EngineFit& sglang = of(report, Engine::sglang, KvDtype::bf16);
  CHECK(sglang.share.fraction == 0.591);
  CHECK(sglang.usable_bytes == 6'345'814'179ULL);
  CHECK(sglang.limited_by == FitLimit::weights);
  CHECK(sglang.max_tokens == 0);
  CHECK(report.weights_exceed());
  // Without SGLang every engine fits a length.
  request.engines = {Engine::transformers, Engine::vllm, Engine::llama_cpp};
  CHECK_FALSE(ropelens::fit_model(load(kLlama), request).weights_exceed());
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
  // ceil(0.1 × 25,769,803,776) = 2,576,980,378 off each engine's share. transformers: 25,769,803,776 − 2,576,980,378
  // − 16,060,522,496 = 7,132,300,902 bytes, 54,415.1 tokens of 131,072 bytes. vLLM: 23,708,219,473 − reserve −
  // weights = 5,070,716,599 bytes, 38,686.5 tokens, 38,672 in blocks of 16. SGLang: 21,466,246,545 − reserve −
  // weights = 2,828,743,671 bytes, 21,581.6 tokens.
  const FitReport report = fit(kLlama, 24 * kGiB, kLlama8bWeights, 2'576'980'378ULL);
  CHECK(of(report, Engine::transformers, KvDtype::bf16).kv_budget == 7'132'300'902ULL);
  CHECK(of(report, Engine::transformers, KvDtype::bf16).max_tokens == 54415);
  CHECK(of(report, Engine::vllm, KvDtype::bf16).kv_budget == 5'070'716'599ULL);
  CHECK(of(report, Engine::vllm, KvDtype::bf16).max_tokens == 38672);
  CHECK(of(report, Engine::sglang, KvDtype::bf16).kv_budget == 2'828'743'671ULL);
  CHECK(of(report, Engine::sglang, KvDtype::bf16).max_tokens == 21581);
  CHECK(of(report, Engine::llama_cpp, KvDtype::bf16).max_tokens == 54272);
}

TEST_CASE("fit: each KV dtype an engine offers, and none it does not", "[fit]") {
  const FitReport report = fit(kLlama, 24 * kGiB, kLlama8bWeights, 0, {KvDtype::fp8, KvDtype::q8_0});
  // fp8: 65,536 bytes per token. vLLM: 7,647,696,977 bytes hold 116,694.6 tokens, 116,688 in blocks of 16; SGLang:
  // 5,405,724,049 bytes, 82,484.8 tokens.
  CHECK(of(report, Engine::transformers, KvDtype::fp8).unsupported);  // its DynamicCache keeps the model's dtype
  CHECK(of(report, Engine::vllm, KvDtype::fp8).max_tokens == 116688);
  CHECK(of(report, Engine::sglang, KvDtype::fp8).max_tokens == 82484);
  CHECK(of(report, Engine::vllm, KvDtype::fp8).serve_command.find("--kv-cache-dtype fp8 ") != std::string::npos);
  CHECK(of(report, Engine::sglang, KvDtype::fp8).serve_command.find("--kv-cache-dtype fp8_e4m3 ") != std::string::npos);
  CHECK(of(report, Engine::llama_cpp, KvDtype::fp8).unsupported);
  // q8_0: 1024 values in 32 blocks of 34 bytes, × 2 × 32 layers = 69,632 bytes per token: 139,437 tokens.
  CHECK(of(report, Engine::llama_cpp, KvDtype::q8_0).max_tokens == 131072);
  CHECK(of(report, Engine::vllm, KvDtype::q8_0).unsupported);
  CHECK(of(report, Engine::sglang, KvDtype::q8_0).unsupported);
}

TEST_CASE("fit: an MLA model caches its latent, (kv_lora_rank + qk_rope_head_dim) × layers", "[fit][mla]") {
  // DeepSeek-V3: (512 + 64) × 61 layers × 2 bytes = 70,272 bytes per token; a KV budget of 10 GiB = 10,737,418,240
  // bytes holds 152,797.8 tokens, below the declared 163,840.
  const auto model = load("testdata/configs/deepseek/deepseek-v3.json");
  const auto longest = [&](Engine engine) {
    return ropelens::longest_kv_fit(model, engine, KvDtype::bf16, 10 * kGiB, 163840);
  };
  CHECK(longest(Engine::sglang).tokens == 152797);
  CHECK(longest(Engine::vllm).tokens == 152784);
  CHECK(longest(Engine::llama_cpp).tokens == 152576);
  CHECK(longest(Engine::sglang).kv_bytes == 152797ULL * 70272);
  // transformers keeps full K and V per head: 128 × (192 + 128) × 2 bytes × 61 layers = 4,997,120 per token.
  CHECK(longest(Engine::transformers).tokens == 2148);
  // The report gives each engine that budget when the weights leave it: transformers takes the whole 610 GiB, so
  // 610 GiB − 600 GiB of weights = 10 GiB.
  const FitReport report = fit("testdata/configs/deepseek/deepseek-v3.json", 610 * kGiB, 600 * kGiB);
  CHECK(of(report, Engine::transformers, KvDtype::bf16).kv_budget == 10 * kGiB);
  CHECK(of(report, Engine::transformers, KvDtype::bf16).max_tokens == 2148);
}

TEST_CASE("fit: sliding layers keep their window, so full layers take the rest", "[fit][window]") {
  // MedGemma 27B (Gemma 3): 62 layers, 52 sliding (window 1024) and 10 full, 16 KV heads × 128 × (K + V) × 2 bytes
  // = 8,192 bytes per layer and token; a KV budget of 8 GiB = 8,589,934,592 bytes.
  const auto model = load("testdata/configs/gemma/medgemma-27b-it.json");
  const auto longest = [&](Engine engine) {
    return ropelens::longest_kv_fit(model, engine, KvDtype::bf16, 8 * kGiB, 131072).tokens;
  };
  // transformers: sliding layers keep 1023 tokens: (8,589,934,592 − 52 × 8,192 × 1,023) / (10 × 8,192) = 99,538.
  CHECK(longest(Engine::transformers) == 99538);
  // vLLM: (cdiv(1023 + 8192, 16) + 1) × 16 = 9,232 tokens per sliding layer, 3,932,684,288 bytes;
  // 4,657,250,304 / 81,920 = 56,851.2, in blocks of 16: 56,848.
  CHECK(longest(Engine::vllm) == 56848);
  // llama.cpp: 1024 + 512 = 1,536 cells per sliding layer, 654,311,424 bytes; 7,935,623,168 / 81,920 = 96,870.4,
  // padded to 256: 96,768.
  CHECK(longest(Engine::llama_cpp) == 96768);
  // SGLang's sliding pool is 0.8 of the full one, not a window: 81,920 N + 425,984 int(0.8 N) ≤ 8 GiB at N = 20,321.
  CHECK(longest(Engine::sglang) == 20321);
  // The report: transformers takes the whole 58 GiB, so 58 − 50 GiB of weights leave it the same 8 GiB.
  const FitReport report = fit("testdata/configs/gemma/medgemma-27b-it.json", 58 * kGiB, 50 * kGiB);
  CHECK(of(report, Engine::transformers, KvDtype::bf16).kv_budget == 8 * kGiB);
  CHECK(of(report, Engine::transformers, KvDtype::bf16).max_tokens == 99538);
}

TEST_CASE("fit: without the weights' size it refuses", "[fit]") {
  FitRequest request;
  request.memory_bytes = 24 * kGiB;
  CHECK_THROWS_AS(ropelens::fit_model(load(kLlama), request), ropelens::FitRefused);
  CHECK_THROWS_WITH(ropelens::fit_model(load(kLlama), request),
                    Catch::Contains("the weights' size is unknown") && Catch::Contains("--weights SIZE"));
}

TEST_CASE("fit: weights larger than the memory are an error-level answer, limited by the weights", "[fit]") {
  // 16,060,522,496 bytes of weights exceed 8 GiB = 8,589,934,592 bytes for every engine.
  const FitReport report = fit(kLlama, 8 * kGiB, kLlama8bWeights);
  CHECK(report.weights_exceed());
  for (const auto& f : report.fits) {
    INFO(to_string(f.engine));
    CHECK(f.kv_budget == 0);
    CHECK(f.max_tokens == 0);
    CHECK(f.limited_by == FitLimit::weights);
    CHECK(f.serve_command.empty());
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
