// Semantics by architecture (issue 26): a remote-code or unknown model_type is read with the semantics of its
// architectures class, its auto_map class or its MLA key signature; when nothing identifies it, CFG013 says what
// was guessed.
#include <catch2/catch.hpp>

#include <cmath>

#include <nlohmann/json.hpp>

#include "model_support.hpp"
#include "ropelens/check/check.hpp"
#include "ropelens/normalize/normalize.hpp"
#include "ropelens/engines/engine_views.hpp"
#include "ropelens/rope/rope.hpp"

using nlohmann::json;
using ropelens::EngineVersion;
using ropelens::Model;
using ropelens::Pairing;
using ropelens::PositionScheme;
using ropelens::test::any_note_contains;
using ropelens::test::contains;
using ropelens::test::load;
using ropelens::test::messages;

namespace {

Model normalized(const json& config) { return ropelens::normalize_json(config, "inline.json"); }

bool has_best_effort_issue(const Model& model) {
  for (const auto& issue : model.issues)
    if (std::holds_alternative<ropelens::BestEffortReading>(issue.detail)) return true;
  return false;
}

// DeepSeek's softmax scale: (0.1 · mscale_all_dim · ln(factor) + 1)².
double mla_softmax(double factor, double mscale_all_dim) {
  const double gm = 0.1 * mscale_all_dim * std::log(factor) + 1.0;
  return gm * gm;
}

json mla_text(double factor) {
  return {{"model_type", "kimi_k2"},
          {"hidden_size", 7168},
          {"num_attention_heads", 64},
          {"num_hidden_layers", 4},
          {"kv_lora_rank", 512},
          {"qk_nope_head_dim", 128},
          {"qk_rope_head_dim", 64},
          {"max_position_embeddings", 262144},
          {"rope_theta", 50000.0},
          {"rope_scaling",
           {{"type", "yarn"},
            {"factor", factor},
            {"original_max_position_embeddings", 4096},
            {"beta_fast", 1.0},
            {"beta_slow", 1.0},
            {"mscale", 1.0},
            {"mscale_all_dim", 1.0}}}};
}

}  // namespace

TEST_CASE("Kimi-K2: 32 interleaved MLA pairs, DeepSeek YaRN and vLLM's softmax x1.8133, no best-effort finding",
          "[architectures]") {
  const Model model = load("testdata/configs/kimi/kimi-k2-instruct.json");
  REQUIRE(model.setups.size() == 1);
  const auto& setup = model.setups.front();
  CHECK(setup.head_dim.value == 64);
  CHECK(setup.head_dim.from.pointer == "/qk_rope_head_dim");
  CHECK(setup.rotary_dim == 64);
  CHECK(model.pairing.value == Pairing::interleaved);
  CHECK(model.uses_mla());
  CHECK(model.qk_nope_head_dim->value == 128);
  CHECK(setup.rope_theta.value == 50000.0);
  CHECK_FALSE(model.transformers_native);  // transformers runs auto_map's remote code
  CHECK_FALSE(has_best_effort_issue(model));
  CHECK(any_note_contains(model, "read with deepseek_v3 semantics from /architectures/0 'DeepseekV3ForCausalLM'"));
  CHECK(messages(model, "CFG013").empty());

  const double expected = mla_softmax(32.0, 1.0);
  CHECK(expected == Approx(1.8133).epsilon(1e-4));
  for (auto version : {EngineVersion::transformers_v5, EngineVersion::vllm_current, EngineVersion::sglang}) {
    INFO(label_of(version));
    const auto view = engine_view(model, version, 131072);
    REQUIRE(view.setups.size() == 1);
    CHECK(view.setups[0].inv_freq.size() == 32);
    CHECK(view.setups[0].pairing == Pairing::interleaved);
    CHECK(std::abs(view.setups[0].softmax_multiplier - expected) <= 1e-12 * expected);
    CHECK(view.setups[0].rope_magnitude == 1.0);  // gm(f, mscale 1) / gm(f, mscale_all_dim 1)
  }
}

TEST_CASE("Kimi-K2.5: the text_config of KimiK25ForConditionalGeneration reads as MLA, softmax x2.0047",
          "[architectures]") {
  json config = {{"model_type", "kimi_k25"},
                 {"architectures", {"KimiK25ForConditionalGeneration"}},
                 {"text_config", mla_text(64.0)}};
  const Model model = normalized(config);
  REQUIRE(model.setups.size() == 1);
  CHECK(model.setups[0].rotary_dim == 64);
  CHECK(model.pairing.value == Pairing::interleaved);
  CHECK_FALSE(has_best_effort_issue(model));
  const auto view = engine_view(model, EngineVersion::vllm_current, 262144);
  CHECK(std::abs(view.setups[0].softmax_multiplier - mla_softmax(64.0, 1.0)) <= 1e-12);
  CHECK(view.setups[0].softmax_multiplier == Approx(2.0047).epsilon(1e-4));
}

TEST_CASE("DeepSeek-V3.2: qk_rope_head_dim 64, not hidden_size // heads 56", "[architectures]") {
  const Model model = load("testdata/configs/deepseek/deepseek-v3.2.json");
  REQUIRE(model.setups.size() == 1);
  CHECK(model.setups[0].head_dim.value == 64);
  CHECK(model.pairing.value == Pairing::interleaved);
  CHECK(model.uses_mla());
  CHECK(model.transformers_native);
  CHECK_FALSE(has_best_effort_issue(model));
}

TEST_CASE("rope_interleave sets the pairing of an MLA model: GLM-5 true, false gives rotate-half", "[architectures]") {
  json glm5 = {{"model_type", "glm_moe_dsa"},
               {"architectures", {"GlmMoeDsaForCausalLM"}},
               {"hidden_size", 6144},
               {"num_attention_heads", 64},
               {"num_hidden_layers", 4},
               {"kv_lora_rank", 512},
               {"qk_nope_head_dim", 192},
               {"qk_rope_head_dim", 64},
               {"head_dim", 64},
               {"rope_interleave", true},
               {"rope_theta", 1000000}};
  const Model model = normalized(glm5);
  CHECK(model.setups[0].head_dim.value == 64);
  CHECK(model.pairing.value == Pairing::interleaved);
  CHECK(model.pairing.from.pointer == "/rope_interleave");
  CHECK(engine_view(model, EngineVersion::vllm_current, 8192).setups[0].pairing == Pairing::interleaved);

  glm5["rope_interleave"] = false;
  const Model half = normalized(glm5);
  CHECK(half.pairing.value == Pairing::rotate_half);
  for (auto version :
       {EngineVersion::transformers_v5, EngineVersion::vllm_current, EngineVersion::sglang, EngineVersion::llama_cpp})
    CHECK(engine_view(half, version, 8192).setups[0].pairing == Pairing::rotate_half);
}

TEST_CASE("MiniCPM3: MLA of qk_rope_head_dim 32 takes 16 LongRoPE factors (no CFG005), rotate-half",
          "[architectures]") {
  const std::vector<double> factors(16, 1.0);
  json config = {{"model_type", "minicpm3"},
                 {"architectures", {"MiniCPM3ForCausalLM"}},
                 {"hidden_size", 2560},
                 {"num_attention_heads", 40},
                 {"num_hidden_layers", 4},
                 {"kv_lora_rank", 256},
                 {"q_lora_rank", 768},
                 {"qk_nope_head_dim", 64},
                 {"qk_rope_head_dim", 32},
                 {"max_position_embeddings", 32768},
                 {"rope_theta", 10000.0},
                 {"rope_scaling",
                  {{"type", "longrope"},
                   {"long_factor", factors},
                   {"short_factor", factors},
                   {"original_max_position_embeddings", 32768}}}};
  const Model model = normalized(config);
  CHECK(model.setups[0].head_dim.value == 32);
  CHECK(model.setups[0].rotary_dim == 32);
  CHECK(model.pairing.value == Pairing::rotate_half);
  CHECK(messages(model, "CFG005").empty());
  CHECK_FALSE(has_best_effort_issue(model));
}

TEST_CASE("Kimi-Linear: mla_use_nope leaves its MLA layers without positions", "[architectures]") {
  json config = mla_text(32.0);
  config["model_type"] = "kimi_linear";
  config["architectures"] = {"KimiLinearForCausalLM"};
  config["mla_use_nope"] = true;
  config.erase("rope_scaling");
  const Model model = normalized(config);
  CHECK(model.scheme == PositionScheme::none);
  CHECK(model.scheme_from.pointer == "/mla_use_nope");
  CHECK(model.setups.empty());
}

TEST_CASE("StarCoder gpt_bigcode: learned absolute positions, no RoPE", "[architectures]") {
  const Model model = normalized({{"model_type", "gpt_bigcode"},
                                  {"architectures", {"GPTBigCodeForCausalLM"}},
                                  {"n_embd", 6144},
                                  {"n_head", 48},
                                  {"n_layer", 4},
                                  {"n_positions", 8192}});
  CHECK(model.scheme == PositionScheme::learned_absolute);
  CHECK(model.setups.empty());
  CHECK_FALSE(has_best_effort_issue(model));
}

TEST_CASE("Families with partial rotary: MiniMax-M2 64 of 128, GLM-4.5 0.5 by default, Qwen3.5 0.25 of 256",
          "[architectures]") {
  const Model minimax = normalized({{"model_type", "minimax_m2"},
                                    {"hidden_size", 3072},
                                    {"num_attention_heads", 48},
                                    {"head_dim", 128},
                                    {"rotary_dim", 64},
                                    {"num_hidden_layers", 4},
                                    {"rope_theta", 5000000}});
  CHECK(minimax.setups[0].rotary_dim == 64);
  CHECK(minimax.pairing.value == Pairing::rotate_half);
  CHECK_FALSE(has_best_effort_issue(minimax));

  const Model glm45 = normalized({{"model_type", "glm4_moe"},
                                  {"hidden_size", 5120},
                                  {"num_attention_heads", 96},
                                  {"num_hidden_layers", 4},
                                  {"rope_theta", 1000000}});
  CHECK(glm45.setups[0].head_dim.value == 128);
  CHECK(glm45.setups[0].rotary_dim == 64);
  CHECK(glm45.pairing.value == Pairing::rotate_half);

  const Model glm41v = normalized({{"model_type", "glm4v"},
                                   {"text_config",
                                    {{"model_type", "glm4v_text"},
                                     {"hidden_size", 4096},
                                     {"num_attention_heads", 32},
                                     {"num_hidden_layers", 4},
                                     {"partial_rotary_factor", 0.5}}}});
  CHECK(glm41v.setups[0].rotary_dim == 64);
  CHECK(glm41v.pairing.value == Pairing::interleaved);

  const Model qwen35 =
      normalized({{"model_type", "qwen3_5"},
                  {"text_config",
                   {{"model_type", "qwen3_5_text"},
                    {"hidden_size", 4096},
                    {"num_attention_heads", 16},
                    {"num_hidden_layers", 4},
                    {"layer_types", {"linear_attention", "linear_attention", "linear_attention", "full_attention"}},
                    {"rope_parameters", {{"rope_theta", 10000000}, {"partial_rotary_factor", 0.25}}}}}});
  REQUIRE(qwen35.setups.size() == 1);
  CHECK(qwen35.setups[0].head_dim.value == 256);
  CHECK(qwen35.setups[0].rotary_dim == 64);
  CHECK(qwen35.setups[0].layers == std::vector<int>{3});
  CHECK_FALSE(has_best_effort_issue(qwen35));
}

TEST_CASE("SmolLM3: no_rope_layers leaves every fourth layer NoPE, theta defaults to 2e6", "[architectures]") {
  const Model model = normalized({{"model_type", "smollm3"},
                                  {"hidden_size", 2048},
                                  {"num_attention_heads", 16},
                                  {"num_hidden_layers", 8},
                                  {"no_rope_layers", {1, 1, 1, 0, 1, 1, 1, 0}}});
  REQUIRE(model.setups.size() == 1);
  CHECK(model.setups[0].layers == std::vector<int>{0, 1, 2, 4, 5, 6});
  CHECK(model.setups[0].rope_theta.value == 2e6);
  CHECK_FALSE(has_best_effort_issue(model));
}

TEST_CASE("EXAONE 4: with a sliding window only the sliding layers rotate, without one every layer does",
          "[architectures]") {
  json config = {{"model_type", "exaone4"},
                 {"hidden_size", 5120},
                 {"num_attention_heads", 40},
                 {"head_dim", 128},
                 {"num_hidden_layers", 8},
                 {"sliding_window", 4096},
                 {"sliding_window_pattern", "LLLG"},
                 {"layer_types",
                  {"sliding_attention", "sliding_attention", "sliding_attention", "full_attention", "sliding_attention",
                   "sliding_attention", "sliding_attention", "full_attention"}},
                 {"rope_theta", 1000000.0}};
  const Model hybrid = normalized(config);
  REQUIRE(hybrid.setups.size() == 1);
  CHECK(hybrid.setups[0].layers == std::vector<int>{0, 1, 2, 4, 5, 6});
  CHECK_FALSE(hybrid.layers[3].uses_rope);
  CHECK(any_note_contains(hybrid, "only the sliding layers rotate"));
  CHECK_FALSE(has_best_effort_issue(hybrid));

  config.erase("layer_types");
  config.erase("sliding_window_pattern");
  CHECK(normalized(config).setups[0].layers == std::vector<int>{0, 1, 2, 4, 5, 6});  // Exaone4Config's default 4

  config["sliding_window"] = nullptr;
  const Model global = normalized(config);
  REQUIRE(global.setups.size() == 1);
  CHECK(global.setups[0].layers == std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7});
}

TEST_CASE("auto_map and the MLA key signature identify DeepSeek semantics without a known model_type",
          "[architectures]") {
  json config = mla_text(32.0);
  config["model_type"] = "my_mla";
  config["auto_map"] = {{"AutoModelForCausalLM", "modeling_my.DeepseekV3ForCausalLM"}};
  const Model by_auto_map = normalized(config);
  CHECK(by_auto_map.setups[0].head_dim.value == 64);
  CHECK(any_note_contains(by_auto_map, "from /auto_map/AutoModelForCausalLM 'DeepseekV3ForCausalLM'"));

  config.erase("auto_map");
  const Model by_keys = normalized(config);
  CHECK(by_keys.setups[0].head_dim.value == 64);
  CHECK(by_keys.pairing.value == Pairing::interleaved);
  CHECK(any_note_contains(by_keys, "kv_lora_rank and qk_rope_head_dim mark DeepSeek's multi-head latent attention"));
  CHECK_FALSE(has_best_effort_issue(by_keys));
}

TEST_CASE("An unknown model_type is a CFG013 warning naming what was guessed", "[architectures]") {
  const Model model = normalized({{"model_type", "foo"},
                                  {"architectures", {"FooForCausalLM"}},
                                  {"hidden_size", 7168},
                                  {"num_attention_heads", 64},
                                  {"num_hidden_layers", 2}});
  CHECK(has_best_effort_issue(model));
  const auto found = messages(model, "CFG013");
  REQUIRE(found.size() == 1);
  CHECK(found[0] ==
        "/model_type: model_type 'foo' (architectures[0] 'FooForCausalLM') is not known: read with Llama semantics; "
        "head_dim 112 derived as hidden_size 7168 // num_attention_heads 64; rotate_half pairing assumed; "
        "rope_theta 10000 assumed (transformers default rope_theta 10000)");
}
