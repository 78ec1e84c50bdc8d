// Models of 2025-26 whose layer types rotate differently (testdata/hub, MANIFEST.tsv): MiMo-V2-Flash's swa_* keys,
// Granite SWA's layer_rope_theta, Laguna's per-type partial_rotary_factor, TeleChat3's YaRN, Qwen3-VL's M-RoPE with
// YaRN, MiniMax-M2's legacy rotary_dim, GLM-4.x's default partial factor, and the KV layout per layer type.
#include <catch2/catch.hpp>

#include <cmath>

#include "model_support.hpp"
#include "ropelens/check/check.hpp"
#include "ropelens/engines/kv_cache.hpp"
#include "ropelens/memory/kv_cache.hpp"
#include "ropelens/rope/rope.hpp"
#include "ropelens/engines/engine_views.hpp"

using ropelens::Model;
using ropelens::RopeSetup;
using ropelens::RopeType;
using ropelens::Severity;
using ropelens::test::any_note_contains;
using ropelens::test::contains;
using ropelens::test::load;

namespace {

std::vector<ropelens::Diagnostic> diagnostics(const Model& model, const std::string& code) {
  ropelens::LoadedModel loaded;
  loaded.model = model;
  ropelens::CheckOptions options;
  options.selection.select = {code};
  return ropelens::check_model(std::move(loaded), options).diagnostics;
}

const RopeSetup& setup_named(const Model& model, const std::string& name) {
  for (const auto& setup : model.setups)
    if (setup.name == name) return setup;
  FAIL("no setup named " << name);
  return model.setups.front();
}

}  // namespace

TEST_CASE("MiMo-V2-Flash: theta 1e4 on its 39 sliding layers, 5e6 on its 9 full layers, 64 dims each",
          "[hub-models][mimo]") {
  const Model model = load("testdata/hub/mimo/mimo-v2-flash.json");
  CHECK(model.transformers_native);
  CHECK(model.schedule_summary() == "48 layers: 9 RoPE global, 39 RoPE sliding 128");
  REQUIRE(model.setups.size() == 2);
  const RopeSetup& sliding = setup_named(model, "sliding_attention");
  const RopeSetup& full = setup_named(model, "full_attention");
  CHECK(sliding.layers.size() == 39);
  CHECK(full.layers == std::vector<int>{0, 5, 11, 17, 23, 29, 35, 41, 47});
  CHECK(sliding.rope_theta.value == 1e4);
  CHECK(sliding.rope_theta.from.pointer == "/swa_rope_theta");
  CHECK(full.rope_theta.value == 5e6);
  CHECK(full.rope_theta.from.pointer == "/rope_theta");
  for (const RopeSetup* setup : {&sliding, &full}) {
    CHECK(setup->head_dim.value == 192);
    CHECK(setup->rotary_dim == 64);  // int(192 × 0.334) = int(64.128)
    CHECK(setup->type == RopeType::default_rope);
  }
  CHECK(sliding.head_dim.from.pointer == "/swa_head_dim");
  // The slowest pair: θ^(-62/64). 5e6 on all 48 layers would be 99.8% off on the sliding ones.
  const double slow_sliding = std::pow(1e4, -62.0 / 64.0);
  const double slow_full = std::pow(5e6, -62.0 / 64.0);
  CHECK(ropelens::compute_rope_table(sliding).inv_freq.back() == Approx(slow_sliding).epsilon(1e-12));
  CHECK(ropelens::compute_rope_table(full).inv_freq.back() == Approx(slow_full).epsilon(1e-12));
  CHECK(1.0 - slow_full / slow_sliding == Approx(0.99758).epsilon(1e-4));
}

TEST_CASE("MiMo-V2-Flash: 192 x 0.334 = 64.128 is a CFG010 warning, not an error, and no CFG012 or CFG013",
          "[hub-models][mimo]") {
  const Model model = load("testdata/hub/mimo/mimo-v2-flash.json");
  const auto found = diagnostics(model, "CFG010");
  REQUIRE(found.size() == 1);
  CHECK(found[0].severity == Severity::warning);
  CHECK(contains(found[0].message, "64.128"));
  CHECK(contains(found[0].message, "truncates to 64"));
  for (const char* code : {"CFG012", "CFG013", "CFG006", "CFG002"}) {
    INFO(code);
    CHECK(diagnostics(model, code).empty());
  }
}

TEST_CASE("MiMo-V2-Flash: the sliding layers cache 8 KV heads of 192 + 128, the full layers 4", "[hub-models][mimo]") {
  const Model model = load("testdata/hub/mimo/mimo-v2-flash.json");
  REQUIRE(model.kv.sliding_num_kv_heads);
  CHECK(model.kv.sliding_num_kv_heads->value == 8);
  CHECK(model.kv.sliding_num_kv_heads->from.pointer == "/swa_num_key_value_heads");
  REQUIRE(model.kv.v_head_dim);
  CHECK(model.kv.v_head_dim->value == 128);
  // bf16 at 262144 tokens: the full layers hold every token in 4 × (192 + 128) values, the sliding layers 128 tokens
  // in 8 × (192 + 128).
  const auto report = ropelens::kv_cache_at(model, {262144, ropelens::KvDtype::bf16});
  REQUIRE_FALSE(report.not_computed);
  const ropelens::KvGroup* full = nullptr;
  const ropelens::KvGroup* sliding = nullptr;
  for (const auto& group : report.cache.groups) (group.name == "full_attention" ? full : sliding) = &group;
  REQUIRE(full);
  REQUIRE(sliding);
  CHECK(full->row == ropelens::KvRow{4 * 192, 4 * 128});
  CHECK(sliding->row == ropelens::KvRow{8 * 192, 8 * 128});
  CHECK(full->bytes == 9ull * 262144 * 4 * (192 + 128) * 2);
  CHECK(sliding->bytes == 39ull * 128 * 8 * (192 + 128) * 2);
}

TEST_CASE("MiMo-V2.5 remote code (mimo_v2): swa_rope_theta absent falls back to rope_theta, as vLLM's getattr",
          "[hub-models][mimo]") {
  const Model model =
      load("testdata/hub/mimo/mimo-v2-flash.json", {{"/model_type", "mimo_v2"},
                                                    {"/architectures", nlohmann::json::array({"MiMoV2ForCausalLM"})},
                                                    {"/rope_theta", 1e7},
                                                    {"/swa_rope_theta", nullptr}});
  CHECK_FALSE(model.transformers_native);
  CHECK(setup_named(model, "sliding_attention").rope_theta.value == 1e7);
  CHECK(setup_named(model, "full_attention").rope_theta.value == 1e7);
  CHECK(any_note_contains(model, "runs remote code"));
  CHECK_FALSE(any_note_contains(model, "best effort"));
}

TEST_CASE("Granite SWA: layer_rope_theta gives each layer its base, 0 leaves it NoPE", "[hub-models][granite]") {
  const Model model = load("testdata/configs/synthetic/granite-swa-layer-rope-theta.json");
  CHECK(model.transformers_native);
  CHECK(model.schedule_summary() == "24 layers: 6 NoPE global, 18 RoPE sliding 128");
  REQUIRE(model.setups.size() == 1);
  CHECK(model.setups[0].rope_theta.value == 1e4);
  CHECK(model.setups[0].rope_theta.from.pointer == "/layer_rope_theta/1");
  CHECK(model.setups[0].layers.size() == 18);
  CHECK(model.nope_layers() == std::vector<int>{0, 4, 8, 12, 16, 20});

  // A base per layer overrides rope_parameters' own: two bases give two setups over their layers.
  std::vector<double> thetas(24, 1e4);
  thetas[0] = 5e5;
  thetas[4] = 5e5;
  const Model two =
      load("testdata/configs/synthetic/granite-swa-layer-rope-theta.json", {{"/layer_rope_theta", thetas}});
  REQUIRE(two.setups.size() == 3);  // 1e4 on sliding layers, 1e4 on full layers 8..20, 5e5 on layers 0 and 4
  bool found = false;
  for (const auto& setup : two.setups)
    if (setup.rope_theta.value == 5e5) {
      found = true;
      CHECK(setup.layers == std::vector<int>{0, 4});
      CHECK(setup.rope_theta.from.pointer == "/layer_rope_theta/0");
    }
  CHECK(found);
  CHECK(two.nope_layers().empty());

  const Model short_list = load("testdata/configs/synthetic/granite-swa-layer-rope-theta.json",
                                {{"/layer_rope_theta", std::vector<double>{1e4, 0.0}}});
  const auto found_issues = diagnostics(short_list, "CFG006");
  REQUIRE(found_issues.size() == 1);
  CHECK(found_issues[0].message == "layer_rope_theta has 2 entries but num_hidden_layers is 24");
}

TEST_CASE("Laguna-XS.2: YaRN x64 with partial 0.5 on full layers, default RoPE on all 128 dims of sliding layers",
          "[hub-models][laguna]") {
  // The published FP8 config: a stray original_max_position_embeddings beside the two layer-type dicts, and a
  // top-level partial_rotary_factor 0.5 that the sliding dict's own 1.0 overrides.
  const Model model = load("testdata/hub/laguna/laguna-xs.2-fp8.json");
  CHECK(model.transformers_native);
  const RopeSetup& full = setup_named(model, "full_attention");
  const RopeSetup& sliding = setup_named(model, "sliding_attention");
  CHECK(full.type == RopeType::yarn);
  CHECK(full.rotary_dim == 64);
  CHECK(full.partial_rotary_factor.from.pointer == "/rope_parameters/full_attention/partial_rotary_factor");
  CHECK(full.rope_theta.value == 5e5);
  CHECK(full.factor->value == 64.0);
  CHECK(full.original_max_position_embeddings->value == 4096);
  REQUIRE(full.yarn.attention_factor);
  CHECK(full.yarn.attention_factor->value == Approx(1.4158883083359672).epsilon(1e-15));
  CHECK(sliding.type == RopeType::default_rope);
  CHECK(sliding.rotary_dim == 128);
  CHECK(sliding.partial_rotary_factor.from.pointer == "/rope_parameters/sliding_attention/partial_rotary_factor");
  CHECK(sliding.rope_theta.value == 1e4);
  CHECK(full.layers.size() == 10);
  CHECK(sliding.layers.size() == 30);
  CHECK(any_note_contains(model, "/rope_parameters has original_max_position_embeddings beside the per-layer-type"));
  CHECK(any_note_contains(model, "wins over the top-level /partial_rotary_factor 0.5"));
  for (const std::string code : {"CFG013", "CFG012", "CFG007", "CTX201"}) CHECK(diagnostics(model, code).empty());
}

TEST_CASE("TeleChat3: telechat3-yarn is YaRN on s = 32768 / 8192 = 4 with magnitude 0.07 ln 4 + 1 = 1.0970",
          "[hub-models][telechat]") {
  const Model model = load("testdata/hub/telechat/telechat3-36b-thinking-4bit.json");
  REQUIRE(model.setups.size() == 1);
  const RopeSetup& setup = model.setups[0];
  CHECK(setup.type == RopeType::yarn);
  CHECK(setup.rope_type_name.value == "telechat3-yarn");
  REQUIRE(setup.factor);
  CHECK(setup.factor->value == 4.0);
  REQUIRE(setup.original_max_position_embeddings);
  CHECK(setup.original_max_position_embeddings->value == 8192);
  REQUIRE(setup.yarn.attention_factor);
  CHECK(setup.yarn.attention_factor->value == Approx(0.07 * std::log(4.0) + 1.0).epsilon(1e-15));
  CHECK(ropelens::compute_rope_table(setup).attention_factor == Approx(1.0970406).epsilon(1e-7));
  // max_position_embeddings is already the scaled length: the declared length stays 32768.
  CHECK(model.max_position_embeddings.value == 32768);
  CHECK(diagnostics(model, "CFG002").empty());
  CHECK(diagnostics(model, "CFG013").empty());
}

TEST_CASE("Qwen3-VL with YaRN x3 from 262144 to 1M: M-RoPE sections kept, magnitude 0.1 ln 3 + 1",
          "[hub-models][qwen]") {
  const Model model = load("testdata/hub/qwen/qwen3-vl-8b-instruct-yarn-1m.json");
  REQUIRE(model.setups.size() == 1);
  const RopeSetup& setup = model.setups[0];
  CHECK(setup.type == RopeType::yarn);
  CHECK(setup.mrope_section == std::vector<int>{24, 20, 20});
  CHECK(setup.mrope_interleaved);
  REQUIRE(setup.factor);
  CHECK(setup.factor->value == 3.0);
  CHECK(setup.original_max_position_embeddings->value == 262144);
  CHECK(model.max_position_embeddings.value == 1000000);
  CHECK(ropelens::compute_rope_table(setup).attention_factor == Approx(0.1 * std::log(3.0) + 1.0).epsilon(1e-15));
  CHECK(diagnostics(model, "CFG007").empty());
  CHECK(diagnostics(model, "CFG008").empty());
}

TEST_CASE("MiniMax-M2.7: the legacy rotary_dim 64 of 128 is read, and the transformers versions that drop it are named",
          "[hub-models][minimax]") {
  const Model model = load("testdata/hub/minimax/minimax-m2.7.json");
  REQUIRE(model.setups.size() == 1);
  CHECK(model.setups[0].rotary_dim == 64);
  CHECK(model.setups[0].partial_rotary_factor.value == 0.5);
  CHECK(any_note_contains(model, "PR #48486"));
  CHECK(any_note_contains(model, "rotated all 128"));
}

TEST_CASE("GLM-4.5 without partial_rotary_factor: Glm4MoeConfig's 0.5, 64 of 128 dims", "[hub-models][glm]") {
  const Model stated = load("testdata/hub/glm/glm-4.5.json");
  const Model absent = load("testdata/hub/glm/glm-4.5.json", {{"/partial_rotary_factor", nullptr}});
  for (const Model* model : {&stated, &absent}) {
    REQUIRE(model->setups.size() == 1);
    CHECK(model->setups[0].rotary_dim == 64);
  }
  CHECK(absent.setups[0].partial_rotary_factor.from.origin == ropelens::Origin::defaulted);
  CHECK(contains(absent.setups[0].partial_rotary_factor.from.note, "glm4_moe class default partial_rotary_factor 0.5"));
  const Model dense =
      load("testdata/hub/glm/glm-4.5.json",
           {{"/model_type", "glm4"}, {"/partial_rotary_factor", nullptr}, {"/architectures", nlohmann::json::array()}});
  CHECK(dense.setups[0].rotary_dim == 64);
  CHECK(dense.pairing.value == ropelens::Pairing::interleaved);
}

TEST_CASE("Gemma 4 31B: proportional RoPE on the 512-wide global heads, 64 of 256 pairs rotate",
          "[hub-models][gemma]") {
  const Model model = load("testdata/configs/gemma/gemma-4-31b-it.json");
  const RopeSetup& full = setup_named(model, "full_attention");
  const RopeSetup& sliding = setup_named(model, "sliding_attention");
  CHECK(full.type == RopeType::proportional);
  CHECK(full.head_dim.value == 512);
  CHECK(full.head_dim.from.pointer == "/text_config/global_head_dim");
  CHECK(full.rotary_dim == 128);  // 2 × floor(512 × 0.25 / 2)
  const auto table = ropelens::compute_rope_table(full);
  REQUIRE(table.inv_freq.size() == 256);
  CHECK(table.inv_freq[63] == Approx(std::pow(1e6, -126.0 / 512.0)).epsilon(1e-12));
  CHECK(table.inv_freq[64] == 0.0);
  CHECK(sliding.head_dim.value == 256);
  CHECK(sliding.rotary_dim == 256);
}

TEST_CASE("DeepSeek-V4-Flash under SGLang: the compress_ratio 0 layers run YaRN on 1e4, bit-identical to vLLM",
          "[hub-models][deepseek][engines]") {
  const Model model = load("testdata/hub/deepseek/deepseek-v4-flash.json");
  const auto vllm = ropelens::engine_view(model, ropelens::EngineVersion::vllm_legacy, 1048576);
  const auto sglang = ropelens::engine_view(model, ropelens::EngineVersion::sglang, 1048576);
  REQUIRE(sglang.setups.size() == 2);
  const auto& sliding = sglang.setups[0];
  CHECK(sliding.method == RopeType::yarn);
  CHECK(sliding.rope_magnitude == 1.0);
  REQUIRE(sliding.inv_freq.size() == 32);
  CHECK(sliding.inv_freq == vllm.setups[0].inv_freq);
  // The slowest pair, inside YaRN's ramp on 65536 (SGLang's precompute_freqs_cis in the engines oracle, float32:
  // 2.75679922e-05); plain RoPE would give 1e4^(-62/64) = 1.3335e-4.
  CHECK(sliding.inv_freq[31] == Approx(2.75679922e-05).epsilon(1e-6));
  for (const auto& note : sliding.notes) CHECK(note.text().find("SUBMODE") == std::string::npos);
}

TEST_CASE("Ling-flash-2.0: vLLM's bailing_moe.py rotates all 128 dims without rotary_dim, SGLang 64",
          "[hub-models][ling][engines]") {
  const Model model = load("testdata/hub/ling/ling-flash-2.0.json");
  for (auto version : {ropelens::EngineVersion::vllm_legacy, ropelens::EngineVersion::vllm_current}) {
    const auto view = ropelens::engine_view(model, version, 32768);
    REQUIRE(view.setups[0].inv_freq.size() == 64);
    CHECK(view.setups[0].inv_freq[63] == Approx(std::pow(600000.0, -126.0 / 128.0)).epsilon(1e-12));
  }
  CHECK(ropelens::engine_view(model, ropelens::EngineVersion::sglang, 32768).setups[0].inv_freq.size() == 32);
  const Model stated = load("testdata/hub/ling/ling-flash-2.0.json", {{"/rotary_dim", 64}});
  CHECK(ropelens::engine_view(stated, ropelens::EngineVersion::vllm_legacy, 32768).setups[0].inv_freq.size() == 32);
}

TEST_CASE("Phi-3 su with a top-level original 4096 under SGLang: magnitude 1.1902, long factors above 4096",
          "[engines][phi3]") {
  const Model model = load("testdata/configs/synthetic/longrope-su-partial.json");
  REQUIRE_FALSE(model.setups[0].original_max_position_embeddings);  // transformers leaves su without one
  const auto view = ropelens::engine_view(model, ropelens::EngineVersion::sglang, 131072);
  const auto& setup = view.setups.front();
  CHECK(setup.rope_magnitude == Approx(std::sqrt(17.0 / 12.0)).epsilon(1e-12));
  CHECK(setup.rope_magnitude == Approx(1.1902).margin(5e-5));
  CHECK(setup.long_factors);
  REQUIRE(setup.inv_freq.size() == 48);
  CHECK(setup.inv_freq[1] == Approx(std::pow(10000.0, -2.0 / 96.0) / 2.0).epsilon(1e-12));
  CHECK(ropelens::engine_view(model, ropelens::EngineVersion::sglang, 4096).setups.front().long_factors == false);
}

TEST_CASE("TeleChat3 in the engines: vLLM's own YaRN class, 131072 before PR #55116, and SGLang refuses the type",
          "[hub-models][telechat][engines]") {
  const Model model = load("testdata/hub/telechat/telechat3-36b-thinking-4bit.json");
  const auto legacy = ropelens::engine_view(model, ropelens::EngineVersion::vllm_legacy, 32768);
  CHECK(legacy.setups[0].rope_magnitude == Approx(0.07 * std::log(4.0) + 1.0).epsilon(1e-12));
  CHECK(legacy.length.default_tokens == 131072);
  const auto current = ropelens::engine_view(model, ropelens::EngineVersion::vllm_current, 32768);
  CHECK(current.length.default_tokens == 32768);
  const auto sglang = ropelens::engine_view(model, ropelens::EngineVersion::sglang, 32768);
  REQUIRE(sglang.refusal);
  CHECK(contains(*sglang.refusal, "Unknown RoPE scaling type telechat3-yarn"));
}

TEST_CASE("MiMo-V2-Flash in transformers' native layout: the same two bases, and vLLM and SGLang cannot load it",
          "[hub-models][mimo][engines]") {
  const Model model = load("testdata/hub/mimo/mimo-v2-flash-native.json");
  CHECK(setup_named(model, "sliding_attention").rope_theta.value == 1e4);
  CHECK(setup_named(model, "full_attention").rope_theta.value == 5e6);
  REQUIRE(model.kv.sliding_num_kv_heads);
  CHECK(model.kv.sliding_num_kv_heads->value == 8);  // 2 × num_key_value_heads, as MiMoV2FlashAttention
  for (auto version : {ropelens::EngineVersion::vllm_legacy, ropelens::EngineVersion::sglang}) {
    const auto view = ropelens::engine_view(model, version, 262144);
    REQUIRE(view.refusal);
    CHECK(contains(*view.refusal, "hybrid_layer_pattern"));
  }
  CHECK_FALSE(
      ropelens::engine_view(load("testdata/hub/mimo/mimo-v2-flash.json"), ropelens::EngineVersion::sglang, 262144)
          .refusal);
}
