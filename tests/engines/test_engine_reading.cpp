// Engine views follow each engine's own reading of the config (issue 26): keys an engine ignores (rope_pct in
// vLLM), per-layer keys transformers ignores (a nested truncate), legacy names (su with a top-level original
// length), the default length of models without a length key, and configs an engine cannot load.
#include <algorithm>
#include <cmath>

#include <catch2/catch.hpp>

#include "model_support.hpp"
#include "ropelens/engines/engine_views.hpp"

using namespace ropelens;
using ropelens::test::contains;
using ropelens::test::findings;
using ropelens::test::load;

namespace {

// transformers' find_correction_dim: the pair index at which a pair turns `rotations` times in `original` tokens.
double correction_dim(double rotations, int dim, double base, double original) {
  return dim * std::log(original / (rotations * 2.0 * M_PI)) / (2.0 * std::log(base));
}

std::size_t full_attention_setup(const Model& model) {
  for (std::size_t i = 0; i < model.setups.size(); ++i)
    if (model.setups[i].name == "full_attention") return i;
  FAIL("no full_attention setup");
  return 0;
}

}  // namespace

TEST_CASE("stable-code-3b: vLLM does not read rope_pct and rotates all 80 dimensions, SGLang reads it") {
  const Model model = load("testdata/configs/stablelm/stable-code-3b.json");
  const auto transformers = engine_view(model, EngineVersion::transformers_v5, 16384);
  const auto vllm = engine_view(model, EngineVersion::vllm_current, 16384);
  const auto sglang = engine_view(model, EngineVersion::sglang, 16384);
  REQUIRE(transformers.setups.front().inv_freq.size() == 10);
  REQUIRE(sglang.setups.front().inv_freq.size() == 10);
  REQUIRE(vllm.setups.front().inv_freq.size() == 40);
  // θ 1e6 over 80 dimensions against 20: pair 1 is 1e6^(-2/80) in vLLM, 1e6^(-2/20) elsewhere.
  CHECK(vllm.setups.front().inv_freq[1] == Approx(std::pow(1e6, -2.0 / 80.0)).epsilon(1e-12));
  CHECK(sglang.setups.front().inv_freq[1] == Approx(std::pow(1e6, -2.0 / 20.0)).epsilon(1e-12));
  CHECK(contains(vllm.setups.front().notes.front().text(), "40 pairs instead of 10"));

  const auto eng302 = findings("testdata/configs/stablelm/stable-code-3b.json", "ENG302");
  REQUIRE(eng302.size() == 1);
  CHECK(contains(eng302.front().message, "9 pairs get frequencies that differ"));
}

TEST_CASE("A truncate nested in a layer type's dict: vLLM and SGLang ramp over 27.93-60.04, transformers 27-61") {
  const Model model = load("testdata/configs/synthetic/rope-parameters-per-layer.json");
  const std::size_t full = full_attention_setup(model);
  // full_attention: yarn ×8 on 4096, θ 1e6, head_dim 256, betas 32 and 1.
  const double low = correction_dim(32.0, 256, 1e6, 4096.0);
  const double high = correction_dim(1.0, 256, 1e6, 4096.0);
  CHECK(low == Approx(27.926).margin(5e-4));
  CHECK(high == Approx(60.036).margin(5e-4));
  for (EngineVersion version : {EngineVersion::vllm_current, EngineVersion::vllm_legacy, EngineVersion::sglang}) {
    const auto view = engine_view(model, version, 32768);
    CHECK(*view.setups[full].correction_low == Approx(low).epsilon(1e-12));
    CHECK(*view.setups[full].correction_high == Approx(high).epsilon(1e-12));
  }
  const auto transformers = engine_view(model, EngineVersion::transformers_v5, 32768);
  CHECK(*transformers.setups[full].correction_low == 27.0);
  CHECK(*transformers.setups[full].correction_high == 61.0);

  const auto eng302 = findings("testdata/configs/synthetic/rope-parameters-per-layer.json", "ENG302");
  REQUIRE(eng302.size() == 1);
  CHECK(contains(eng302.front().message,
                 "differing from transformers v5: transformers 4.4x 52 pairs, vLLM ≤ 0.21 33 pairs, SGLang 33 pairs"));
}

TEST_CASE("Legacy su with a top-level original length: vLLM runs longrope on 4096 with the long factors") {
  const Model model = load("testdata/configs/synthetic/longrope-su-partial.json");
  const auto view = engine_view(model, EngineVersion::vllm_legacy, 131072);
  const auto& setup = view.setups.front();
  CHECK(setup.long_factors);
  // mscale sqrt(1 + ln(131072/4096)/ln(4096)) = sqrt(1 + 5/12).
  CHECK(setup.rope_magnitude == Approx(std::sqrt(17.0 / 12.0)).epsilon(1e-12));
  CHECK(setup.rope_magnitude == Approx(1.1902).margin(5e-5));
  // Pair 1 of 48 (rotary 96 of head_dim 128) divided by its long factor 2.
  REQUIRE(setup.inv_freq.size() == 48);
  CHECK(setup.inv_freq[1] == Approx(std::pow(10000.0, -2.0 / 96.0) / 2.0).epsilon(1e-12));
  CHECK(view.length.default_tokens == 4096);
}

TEST_CASE("Models without a length key: vLLM and SGLang serve 2048 tokens by default") {
  for (const char* config : {"testdata/configs/bloom/bloom-176b.json", "testdata/configs/t5/t5-v1_1-base.json"}) {
    const Model model = load(config);
    const auto vllm = engine_view(model, EngineVersion::vllm_current, 1);
    CHECK(vllm.length.default_tokens == 2048);
    CHECK_FALSE(vllm.length.limit_tokens.has_value());  // a --max-model-len is taken unchecked
    const auto sglang = engine_view(model, EngineVersion::sglang, 4096);
    CHECK(sglang.length.default_tokens == 2048);
    CHECK(sglang.length.limit_tokens == 2048);
    CHECK(contains(sglang.length.message, "context_length (4096) is greater than the derived context_length (2048)"));
  }
}

TEST_CASE(
    "T5 states n_positions 512: vLLM reads it, SGLang does not (T5Config maps no attribute to it) and serves 2048") {
  const Model model = load("testdata/configs/t5/t5-base.json");
  CHECK(engine_view(model, EngineVersion::vllm_current, 1).length.default_tokens == 512);
  CHECK(engine_view(model, EngineVersion::sglang, 1).length.default_tokens == 2048);
}

TEST_CASE("ChatGLM-6B v1: vLLM and SGLang cannot load it, ChatGLM2-6B loads") {
  const Model v1 = load("testdata/configs/chatglm/chatglm-6b.json");
  const auto vllm = engine_view(v1, EngineVersion::vllm_current, 2048);
  const auto sglang = engine_view(v1, EngineVersion::sglang, 2048);
  REQUIRE(vllm.refusal);
  CHECK(contains(*vllm.refusal, "no attribute 'original_rope'"));
  REQUIRE(sglang.refusal);
  CHECK(contains(*sglang.refusal, "KeyError"));
  CHECK_FALSE(engine_view(v1, EngineVersion::transformers_v5, 2048).refusal);

  const auto eng306 = findings("testdata/configs/chatglm/chatglm-6b.json", "ENG306");
  REQUIRE(eng306.size() == 2);  // the three vLLM versions behave alike and are named in one finding
  CHECK(contains(eng306[0].message, "vLLM ≤ 0.21, vLLM 0.22–0.29 cannot load"));
  CHECK(contains(eng306[1].message, "SGLang cannot load"));

  const Model v2 = load("testdata/configs/chatglm/chatglm2-6b.json");
  CHECK_FALSE(engine_view(v2, EngineVersion::vllm_current, 2048).refusal);
  CHECK_FALSE(engine_view(v2, EngineVersion::sglang, 2048).refusal);
  CHECK(findings("testdata/configs/chatglm/chatglm2-6b.json", "ENG306").empty());
}

TEST_CASE("DeepSeek-V3.2 converts as deepseek2, like V3: no magnitude or GGUF finding from a wrong architecture") {
  CHECK(findings("testdata/configs/deepseek/deepseek-v3.2.json", "ENG303").size() ==
        findings("testdata/configs/deepseek/deepseek-v3.json", "ENG303").size());
  CHECK(findings("testdata/configs/deepseek/deepseek-v3.2.json", "ENG304").size() ==
        findings("testdata/configs/deepseek/deepseek-v3.json", "ENG304").size());
}

TEST_CASE("Kimi-K2's equal betas (1 and 1) are a hard cut every engine computes alike: no ROPE106") {
  CHECK(findings("testdata/configs/kimi/kimi-k2-instruct.json", "ROPE106").empty());
}

TEST_CASE("Laguna-XS.2: vLLM refuses a stray key beside the layer-type dicts (patch_legacy_rope_type), S-2.1 loads") {
  const Model xs = load("testdata/hub/laguna/laguna-xs.2-fp8.json");
  for (const auto version :
       {EngineVersion::vllm_legacy, EngineVersion::vllm_dynamic_41277, EngineVersion::vllm_current}) {
    const auto view = engine_view(xs, version, 262144);
    REQUIRE(view.refusal);
    CHECK(contains(*view.refusal, "rope_parameters should have a 'rope_type' key"));
    CHECK(contains(*view.refusal, "original_max_position_embeddings beside the layer-type dicts"));
  }
  // transformers and SGLang read only the layer-type entries (nested_rope_parameter_keys; SGLang's laguna.py).
  CHECK_FALSE(engine_view(xs, EngineVersion::transformers_v5, 262144).refusal);
  CHECK_FALSE(engine_view(xs, EngineVersion::sglang, 262144).refusal);
  const auto eng306 = findings("testdata/hub/laguna/laguna-xs.2-fp8.json", "ENG306");
  REQUIRE(eng306.size() == 1);
  CHECK(contains(eng306[0].message, "vLLM ≤ 0.21, vLLM 0.22–0.29 cannot load"));

  const Model s21 = load("testdata/hub/laguna/laguna-s.2.1-fp8.json");
  CHECK(s21.rope_stray_keys.empty());
  CHECK_FALSE(engine_view(s21, EngineVersion::vllm_legacy, 262144).refusal);
  CHECK(findings("testdata/hub/laguna/laguna-s.2.1-fp8.json", "ENG306").empty());
}

TEST_CASE("deepseek_ref without auto_map: vLLM's and SGLang's views say AutoConfig must know the model_type") {
  const auto any_view_note = [](const Model& model, EngineVersion version, const std::string& text) {
    const auto view = engine_view(model, version, 1048576);
    return std::any_of(view.notes.begin(), view.notes.end(),
                       [&](const Note& note) { return contains(note.text(), text); });
  };
  const Model repackaged = load("testdata/hub/deepseek/deepseek-v4-flash-fp8-sglang.json");
  CHECK(any_view_note(repackaged, EngineVersion::vllm_legacy,
                      "model_type 'deepseek_ref' has no config class in vLLM's registry"));
  CHECK(any_view_note(repackaged, EngineVersion::vllm_legacy, R"(--hf-overrides '{"model_type": "deepseek_v4"}')"));
  CHECK(any_view_note(repackaged, EngineVersion::sglang, "has no config class in SGLang's registry"));
  // Kimi-K2 is read by its architectures too, but its auto_map names the remote config class AutoConfig loads.
  const Model kimi = load("testdata/configs/kimi/kimi-k2-instruct.json");
  CHECK_FALSE(any_view_note(kimi, EngineVersion::vllm_legacy, "no config class"));
  CHECK_FALSE(any_view_note(kimi, EngineVersion::sglang, "no config class"));
  // The original's model_type is registered.
  const Model original = load("testdata/hub/deepseek/deepseek-v4-flash-nvfp4.json");
  CHECK_FALSE(any_view_note(original, EngineVersion::vllm_legacy, "no config class"));
}
