// MLX-LM, TensorRT-LLM and ExLlamaV3 views against the figures their own code gives (tools/oracle-engines3, run on
// CPU: docs/engines.md, "MLX-LM, TensorRT-LLM and ExLlamaV3"), and the version aliases that pin them.
#include <cmath>

#include <catch2/catch.hpp>

#include "ropelens/engines/deployment.hpp"
#include "ropelens/engines/registry.hpp"
#include "model_support.hpp"
#include "support.hpp"

using namespace ropelens;
using ropelens::test::load;
using ropelens::test::qwen3_yarn4;

namespace {

const char* const kQwen3V5 = "testdata/rules/ENG306/bad-mlx-lm-qwen3-rope-parameters-only/config.json";
const char* const kLlamaV5 = "testdata/rules/ENG307/bad-mlx-lm-rope-parameters-only/config.json";

bool mentions(const std::vector<Note>& notes, const std::string& part) {
  for (const auto& note : notes)
    if (note.text().find(part) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("engines3: ExLlamaV3 runs Qwen3's YaRN x4 on 32768 as factor 1.25") {
  const Model model = qwen3_yarn4();
  const EngineView view = engine_view(model, EngineVersion::exllamav3, 40960);
  REQUIRE(view.setups.size() == 1);
  const EngineSetupView& setup = view.setups.front();
  CHECK(setup.factor == Approx(1.25).epsilon(1e-12));
  CHECK(setup.rope_magnitude == Approx(1.0223143551314211).epsilon(1e-12));  // 0.1·ln 1.25 + 1
  // The oracle's last inverse frequency (float32 in exllamav3): 9.92750e-07.
  CHECK(setup.inv_freq.back() == Approx(9.9275e-07).epsilon(2e-5));
  CHECK(mentions(setup.notes, "max_position_embeddings 40960 / original_max_position_embeddings 32768 = 1.25"));
  CHECK(view.length.default_tokens == 40960);  // TabbyAPI: the raw max_position_embeddings
  CHECK_FALSE(view.length.limit_tokens);
  // transformers v5 runs the stated factor.
  CHECK(engine_view(model, EngineVersion::transformers_v5, 40960).setups.front().rope_magnitude ==
        Approx(1.1386294361119891).epsilon(1e-12));
}

TEST_CASE("engines3: ExLlamaV3 has no dynamic NTK") {
  const Model model = load("testdata/configs/qwen/qwen3-8b.json",
                           {{"/rope_scaling", nlohmann::json{{"rope_type", "dynamic"}, {"factor", 2.0}}}});
  const EngineView view = engine_view(model, EngineVersion::exllamav3, 40960);
  REQUIRE(view.refusal);
  CHECK(view.refusal->find("Unknown rope_type: dynamic") != std::string::npos);
}

TEST_CASE("engines3: MLX-LM cannot load a rope_parameters-only Qwen3, and loses a Llama's scaling") {
  const Model qwen3 = load(kQwen3V5);
  const EngineView mlx = engine_view(qwen3, EngineVersion::mlx_lm, 131072);
  REQUIRE(mlx.refusal);
  CHECK(mlx.refusal->find("'rope_theta'") != std::string::npos);
  CHECK(mlx.refusal->find("qwen3.py reads rope_theta and rope_scaling") != std::string::npos);
  CHECK_FALSE(mlx.length.limit_tokens);  // mlx_lm.server sets no limit

  const Model llama = load(kLlamaV5);
  const EngineView view = engine_view(llama, EngineVersion::mlx_lm, 131072);
  CHECK_FALSE(view.refusal);
  const EngineSetupView& setup = view.setups.front();
  CHECK(setup.method == RopeType::default_rope);
  CHECK(setup.factor == 1.0);
  CHECK(setup.inv_freq.back() == Approx(std::pow(10000.0, -126.0 / 128.0)).epsilon(1e-12));  // θ 10000, unscaled
  CHECK(mentions(setup.notes, "reads rope_scaling, not rope_parameters"));
}

TEST_CASE("engines3: LM Studio caps MLX-LM's context at max_position_embeddings") {
  const Model model = qwen3_yarn4();
  const EngineView view = engine_view(model, EngineVersion::mlx_lm_lmstudio, 131072);
  CHECK(view.length.limit_tokens == 40960);
  CHECK(view.length.beyond == LimitAction::warning);
  CHECK_FALSE(view.length.message.empty());
}

TEST_CASE("engines3: TensorRT-LLM reads rope_parameters from PR #10636 (θ) and #12829 (scaling)") {
  const Model qwen3 = load(kQwen3V5);
  const Model llama = load(kLlamaV5);
  // Before #10636: θ 10000, no scaling.
  const EngineSetupView old = engine_view(llama, EngineVersion::trtllm_before_10636, 131072).setups.front();
  CHECK(old.factor == 1.0);
  CHECK(old.inv_freq.back() == Approx(std::pow(10000.0, -126.0 / 128.0)).epsilon(1e-12));
  // Between: θ 500000, still no scaling.
  const EngineSetupView between = engine_view(llama, EngineVersion::trtllm_before_12829, 131072).setups.front();
  CHECK(between.factor == 1.0);
  CHECK(between.inv_freq.back() == Approx(std::pow(500000.0, -126.0 / 128.0)).epsilon(1e-12));
  // Main: llama3 ×8 as transformers computes it.
  const EngineSetupView main = engine_view(llama, EngineVersion::trtllm_current, 131072).setups.front();
  CHECK(main.factor == 8.0);
  CHECK(main.inv_freq.back() ==
        Approx(engine_view(llama, EngineVersion::transformers_v5, 131072).setups.front().inv_freq.back()));
  // Qwen3's fused QK-norm+RoPE kernel finds no YaRN in a dict, in every version.
  const EngineSetupView fused = engine_view(qwen3, EngineVersion::trtllm_current, 131072).setups.front();
  CHECK(fused.factor == 1.0);
  CHECK(fused.rope_magnitude == 1.0);
  CHECK(mentions(fused.notes, "compute_yarn_parameters"));
}

TEST_CASE("engines3: TensorRT-LLM infers max_seq_len and lowers a longer one") {
  // Linear ×4 multiplies, YaRN does not (model_engine.py _infer_max_seq_len_from_config).
  const Model linear = load("testdata/hub/llama/llama-2-7b-hf.json",
                            {{"/rope_scaling", nlohmann::json{{"type", "linear"}, {"factor", 4.0}}}});
  const EngineView view = engine_view(linear, EngineVersion::trtllm_before_10636, 32768);
  CHECK(view.length.limit_tokens == 16384);
  CHECK(view.length.beyond == LimitAction::warning);
  CHECK(view.length.message ==
        "Specified self.max_seq_len=32768 is larger than what the model can support (16384). Setting max_seq_len "
        "to 16384.");
  CHECK(engine_view(qwen3_yarn4(), EngineVersion::trtllm_current, 40960).length.limit_tokens == 40960);
}

TEST_CASE("engines3: names, version aliases and release placement") {
  CHECK(parse_engine("mlx-lm") == Engine::mlx_lm);
  CHECK(parse_engine("tensorrt-llm") == Engine::trtllm);
  CHECK(parse_engine("exl3") == Engine::exllamav3);
  CHECK(parse_engine("lmstudio") == Engine::mlx_lm);
  CHECK(parse_engine("ktransformers") == Engine::sglang);
  CHECK(parse_stack_entry("lmstudio", "--stack").version == "lmstudio");
  CHECK(parse_stack_entry("kt", "--stack").version == "ktransformers");
  CHECK_THROWS_WITH(parse_stack_entry("lmstudio@0.3", "--stack"), Catch::Contains("names mlx-lm@lmstudio"));
  CHECK(resolve_version(Engine::trtllm, "1.2.0")->version == EngineVersion::trtllm_before_10636);
  CHECK(resolve_version(Engine::trtllm, "1.3.0rc1")->version == EngineVersion::trtllm_before_12829);
  const auto newer = resolve_version(Engine::trtllm, "1.4.0");
  CHECK(newer->version == EngineVersion::trtllm_current);
  CHECK(newer->note);
  CHECK(resolve_version(Engine::mlx_lm, "0.32.0")->version == EngineVersion::mlx_lm);
  CHECK(resolve_version(Engine::exllamav3, "1.4.1")->version == EngineVersion::exllamav3);
}

TEST_CASE("engines3: KTransformers' memory share is kt run's 0.98") {
  const Deployment kt = resolve_deployment(parse_stack({"ktransformers"}, "--stack"), "--stack");
  const Model model = qwen3_yarn4();
  const MemoryShare share = engine_row(Engine::sglang).memory_share({80ULL << 30, 1, &model, &kt, std::nullopt});
  CHECK(share.fraction == 0.98);
  const Deployment plain = resolve_deployment(parse_stack({"sglang"}, "--stack"), "--stack");
  CHECK(engine_row(Engine::sglang).memory_share({80ULL << 30, 1, &model, &plain, std::nullopt}).fraction < 0.98);
}

TEST_CASE("engines3: without a stack the default stack is served, and --engine naming a new engine deploys it alone") {
  const Deployment none = resolve_deployment(Stack{}, "--stack");
  CHECK(none.served() == std::vector<Engine>{Engine::transformers, Engine::vllm, Engine::sglang, Engine::llama_cpp});
  CHECK_FALSE(none.serves(Engine::exllamav3));
  CHECK(with_engine_option(none, "all").served() == none.served());
  CHECK(with_engine_option(none, "vllm").served() == none.served());
  const Deployment exl3 = with_engine_option(none, "exllamav3");
  CHECK(exl3.served() == std::vector<Engine>{Engine::exllamav3});
  CHECK(exl3.viewed("exllamav3") == std::vector<Engine>{Engine::exllamav3});
  // A stated stack is kept: the engine outside it stays an error.
  const Deployment vllm = resolve_deployment(parse_stack({"vllm"}, "--stack"), "--stack");
  CHECK_THROWS_WITH(with_engine_option(vllm, "mlx-lm").viewed("mlx-lm"), Catch::Contains("not in the stack"));
}

namespace {

const char* const kQwen3Yarn4 = "testdata/rules/ENG307/bad-exllamav3-qwen3-yarn/config.json";

}  // namespace

TEST_CASE("engines3 cli: table --engine exllamav3 shows factor 1.25, check --stack exllamav3 reports it") {
  const auto table =
      ropelens::test::run_cli("table " + ropelens::test::source_path(kQwen3Yarn4) + " --engine exllamav3");
  CHECK(table.exit_code == 0);
  CHECK_THAT(table.out, Catch::Contains("factor              1.2500"));
  CHECK_THAT(table.out, Catch::Contains("magnitude           1.0223"));
  const auto check =
      ropelens::test::run_cli("check " + ropelens::test::source_path(kQwen3Yarn4) + " --stack exllamav3");
  CHECK_THAT(check.out, Catch::Contains("ENG307 warning [engine-runs-other-scaling] ExLlamaV3 runs factor 1.25 where "
                                        "the config says 4"));
  // Without a stack ExLlamaV3 is not deployed, so ENG307 does not fire.
  const auto plain = ropelens::test::run_cli("check " + ropelens::test::source_path(kQwen3Yarn4));
  CHECK(plain.out.find("[engine-runs-other-scaling]") == std::string::npos);
}

TEST_CASE("engines3 cli: a rope_parameters-only Qwen3 under --stack mlx-lm and trtllm@1.2.0") {
  const std::string path = ropelens::test::source_path(kQwen3V5);
  const auto mlx = ropelens::test::run_cli("check " + path + " --stack mlx-lm");
  CHECK_THAT(mlx.out, Catch::Contains("ENG306 warning [engine-cannot-load] MLX-LM cannot load this config"));
  CHECK_THAT(mlx.out, Catch::Contains("mlx_lm/models/qwen3.py reads rope_theta and rope_scaling"));
  const auto old = ropelens::test::run_cli("check " + path + " --stack trtllm@1.2.0");
  CHECK_THAT(old.out, Catch::Contains("ENG307 warning [engine-runs-other-scaling] TensorRT-LLM ≤ 1.2 loads this "
                                      "config without its yarn scaling (factor 4)"));
  CHECK_THAT(old.out, Catch::Contains("reads rope_scaling, not rope_parameters"));
  // TensorRT-LLM main reads rope_parameters: no ENG307 for a model without the fused QK-norm kernel.
  const auto llama = ropelens::test::run_cli("check " + ropelens::test::source_path(kLlamaV5) + " --stack trtllm@main");
  CHECK(llama.out.find("[engine-runs-other-scaling]") == std::string::npos);
}

TEST_CASE("engines3 cli: fit --stack trtllm,exllamav3,mlx-lm gives a figure and a command for each") {
  const auto fit = ropelens::test::run_cli("fit " + ropelens::test::source_path(kQwen3Yarn4) +
                                           " --memory 80GiB --weights 16.4GB --stack trtllm,exllamav3,mlx-lm");
  CHECK(fit.exit_code == 0);
  CHECK_THAT(fit.out, Catch::Contains("MLX-LM        bf16             40960  declared"));
  CHECK_THAT(fit.out, Catch::Contains("TensorRT-LLM  bf16             40960  declared"));
  CHECK_THAT(fit.out, Catch::Contains("ExLlamaV3     f16              40960  declared"));
  CHECK_THAT(fit.out, Catch::Contains("0.9 + 0.1 × weights/GPU = 0.9191 of the GPU"));
  CHECK_THAT(fit.out, Catch::Contains("mlx_lm.server --model "));
  CHECK_THAT(fit.out, Catch::Contains("bad-exllamav3-qwen3-yarn --max_seq_len 40960"));
  CHECK_THAT(fit.out, Catch::Contains("bad-exllamav3-qwen3-yarn --max-seq-len 40960 --cache-mode FP16"));
}
