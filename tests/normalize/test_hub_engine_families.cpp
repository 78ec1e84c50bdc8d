// The hub sample's newer models read with the semantics the engines run (testdata/hub, MANIFEST.tsv): HunYuan's NTK
// alpha, ERNIE 4.5's even/odd pairs, DeepSeek-V4's two RoPE setups, DeepSeek-OCR's MHA, Kimi-Linear's length, the
// Qwen3-VL MoE text model, Ling (bailing_moe), MiniMax-M1, and InternLM2's dynamic NTK in GGUF.
#include <catch2/catch.hpp>

#include <cmath>

#include "model_support.hpp"
#include "ropelens/check/check.hpp"
#include "ropelens/engines/engine_views.hpp"

using ropelens::EngineVersion;
using ropelens::Model;
using ropelens::Pairing;
using ropelens::RopeType;
using ropelens::test::any_note_contains;
using ropelens::test::contains;
using ropelens::test::load;
using ropelens::test::messages;

namespace {

bool has_issue_of_best_effort(const Model& model) {
  for (const auto& issue : model.issues)
    if (std::holds_alternative<ropelens::BestEffortReading>(issue.detail)) return true;
  return false;
}

constexpr EngineVersion kCurrent[] = {EngineVersion::transformers_v5, EngineVersion::vllm_current,
                                      EngineVersion::sglang, EngineVersion::llama_cpp};

}  // namespace

TEST_CASE("Hunyuan-A13B: dynamic with alpha 1000 is a fixed base 1e4 x 1000^(128/126) = 1.1159e7 in every engine",
          "[hub-models]") {
  const Model model = load("testdata/hub/hunyuan/hunyuan-a13b-instruct.json");
  REQUIRE(model.setups.size() == 1);
  const auto& setup = model.setups.front();
  const double base = 1e4 * std::pow(1000.0, 128.0 / 126.0);
  CHECK(base == Approx(11158839.9251).epsilon(1e-10));  // the figure in llama.cpp's conversion/hunyuan.py
  CHECK(setup.type == RopeType::default_rope);
  CHECK(setup.rope_theta.value == Approx(base).epsilon(1e-12));
  CHECK(setup.rope_theta.from.pointer == "/rope_scaling/alpha");
  CHECK_FALSE(setup.factor.has_value());
  CHECK(setup.rotary_dim == 128);
  CHECK(model.pairing.value == Pairing::rotate_half);
  CHECK_FALSE(has_issue_of_best_effort(model));
  CHECK(any_note_contains(model, "beta_fast, beta_slow, factor, mscale, mscale_all_dim not read"));
  for (auto version : kCurrent) {
    INFO(label_of(version));
    const auto view = engine_view(model, version, 32768);
    REQUIRE(view.setups.size() == 1);
    REQUIRE(view.setups[0].inv_freq.size() == 64);
    CHECK(view.setups[0].inv_freq[63] == Approx(std::pow(base, -126.0 / 128.0)).epsilon(1e-6));  // llama.cpp: float32
    CHECK(view.setups[0].rope_magnitude == 1.0);
  }
  for (const char* code : {"CFG007", "CFG013", "ENG304", "ROPE104"}) {
    INFO(code);
    CHECK(messages(model, code).empty());
  }
}

TEST_CASE("ERNIE 4.5: native classes, even/odd pairs of 128 dims, rope_theta 5e5", "[hub-models]") {
  const Model dense = load("testdata/hub/ernie/ernie-4.5-0.3b-base-pt.json");
  const Model moe = load("testdata/hub/ernie/ernie-4.5-21b-a3b-thinking.json");
  for (const Model* model : {&dense, &moe}) {
    INFO(model->model_type.value);
    CHECK(model->transformers_native);
    CHECK_FALSE(has_issue_of_best_effort(*model));
    CHECK(model->pairing.value == Pairing::interleaved);
    REQUIRE(model->setups.size() == 1);
    CHECK(model->setups[0].rotary_dim == 128);
    CHECK(model->setups[0].rope_theta.value == 500000.0);
    CHECK(model->max_position_embeddings.value == 131072);
  }
  CHECK(moe.setups[0].head_dim.from.note == "hidden_size 2560 // num_attention_heads 20");
}

TEST_CASE(
    "DeepSeek-V4: 32 interleaved pairs of qk_rope_head_dim 64, sliding layers plain on 1e4, compressed layers "
    "YaRN x16 on 160000",
    "[hub-models]") {
  const Model flash = load("testdata/hub/deepseek/deepseek-v4-flash.json");
  const Model pro = load("testdata/hub/deepseek/deepseek-v4-pro.json");
  for (const Model* model : {&flash, &pro}) {
    INFO(model->source);
    CHECK(model->transformers_native);
    CHECK_FALSE(has_issue_of_best_effort(*model));
    CHECK(model->pairing.value == Pairing::interleaved);
    CHECK(model->layers[2].layer_type == "compressed_sparse_attention");
    CHECK(model->layers[3].layer_type == "heavily_compressed_attention");
    const auto& compressed = model->setups.back();
    CHECK(compressed.type == RopeType::yarn);
    CHECK(compressed.rope_theta.value == 160000.0);
    CHECK(compressed.rope_theta.from.pointer == "/compress_rope_theta");
    CHECK(compressed.factor->value == 16.0);
    CHECK(compressed.original_max_position_embeddings->value == 65536);
    CHECK(compressed.yarn.attention_factor->value == 1.0);
    CHECK(compressed.rotary_dim == 64);
    CHECK(messages(*model, "CFG012").empty());
  }
  // Flash: compress_ratios [0, 0, 4, 128, …, 4] for 43 layers (the 44th entry is the MTP layer); Pro has no 0.
  REQUIRE(flash.setups.size() == 2);
  REQUIRE(pro.setups.size() == 1);
  CHECK(pro.layers[0].layer_type == "heavily_compressed_attention");
  const auto& sliding = flash.setups[0];
  CHECK(sliding.name == "sliding_attention");
  CHECK(sliding.layers == std::vector<int>{0, 1});
  CHECK(sliding.window_tokens->value == 128);
  CHECK(sliding.type == RopeType::default_rope);
  CHECK(sliding.rope_theta.value == 10000.0);
  CHECK(sliding.rotary_dim == 64);
  CHECK(flash.setups[1].layers.size() == 41);

  const auto hf = engine_view(flash, EngineVersion::transformers_v5, 1048576);
  const auto vllm = engine_view(flash, EngineVersion::vllm_current, 1048576);
  const auto sglang = engine_view(flash, EngineVersion::sglang, 1048576);
  REQUIRE(vllm.setups.size() == 2);
  CHECK(hf.setups[0].method == RopeType::default_rope);
  CHECK(vllm.setups[0].method == RopeType::yarn);  // deepseek_v4.py @f1b76c19: deepseek_yarn on every layer
  CHECK(vllm.setups[0].inv_freq.size() == 32);
  for (const auto* view : {&hf, &vllm, &sglang}) {
    INFO(view->label);
    CHECK(view->setups[1].rope_magnitude == 1.0);  // attention_factor 1.0 / mscale pair 0 / unit freqs_cis
    CHECK(view->setups[1].inv_freq[0] == 1.0);
  }
}

TEST_CASE("DeepSeek-OCR: qk_rope_head_dim 0 is MHA, 64 rotate-half pairs of 1280 / 10, no CFG001", "[hub-models]") {
  const Model model = load("testdata/hub/deepseek/deepseek-ocr.json");
  REQUIRE(model.setups.size() == 1);
  CHECK_FALSE(model.uses_mla());
  CHECK(model.setups[0].head_dim.value == 128);
  CHECK(model.setups[0].rotary_dim == 128);
  CHECK(model.pairing.value == Pairing::rotate_half);
  CHECK(messages(model, "CFG001").empty());
  const auto view = engine_view(model, EngineVersion::vllm_current, 8192);
  CHECK(view.setups[0].inv_freq.size() == 64);
}

TEST_CASE("Kimi-Linear: the length is model_max_length 1048576 as vLLM reads it, and no misspelled-key finding",
          "[hub-models]") {
  const Model model = load("testdata/hub/kimi/kimi-linear-48b-a3b-instruct.json");
  CHECK(model.max_position_embeddings.value == 1048576);
  CHECK(model.max_position_embeddings.from.pointer == "/model_max_length");
  const auto view = engine_view(model, EngineVersion::vllm_current, 1048576);
  CHECK(view.length.limit_tokens == 1048576);
  CHECK(messages(model, "CFG012").empty());
}

TEST_CASE("Qwen3-VL-30B-A3B: qwen3_vl_moe_text is native, M-RoPE [24, 20, 20] on 64 pairs, theta 5e6", "[hub-models]") {
  const Model model = load("testdata/hub/qwen/qwen3-vl-30b-a3b-instruct.json");
  CHECK(model.model_type.value == "qwen3_vl_moe_text");
  CHECK(model.transformers_native);
  CHECK_FALSE(has_issue_of_best_effort(model));
  REQUIRE(model.setups.size() == 1);
  CHECK(model.setups[0].mrope_section == std::vector<int>{24, 20, 20});
  CHECK(model.setups[0].mrope_interleaved);
  CHECK(model.setups[0].rotary_dim == 128);
  CHECK(model.setups[0].rope_theta.value == 5000000.0);
}

TEST_CASE("Ling (bailing_moe): rotate-half, Ling-lite rotates all 128 dims, Ling-flash-2.0 half of 128",
          "[hub-models]") {
  const Model lite = load("testdata/hub/ling/ling-lite.json");
  const Model flash = load("testdata/hub/ling/ling-flash-2.0.json");
  for (const Model* model : {&lite, &flash}) {
    INFO(model->source);
    CHECK_FALSE(has_issue_of_best_effort(*model));
    CHECK(model->pairing.value == Pairing::rotate_half);
    CHECK(model->setups[0].rope_theta.value == 600000.0);
    CHECK(messages(*model, "CFG012").empty());
  }
  CHECK(lite.setups[0].rotary_dim == 128);
  CHECK(flash.setups[0].rotary_dim == 64);
  CHECK(flash.setups[0].partial_rotary_factor.from.pointer == "/partial_rotary_factor");
}

TEST_CASE("MiniMax-M1: rotary_dim 64 of 128 on 10 softmax-attention layers of 80, no best effort", "[hub-models]") {
  const Model model = load("testdata/hub/minimax/minimax-m1-80k.json");
  CHECK_FALSE(has_issue_of_best_effort(model));
  REQUIRE(model.setups.size() == 1);
  CHECK(model.setups[0].rotary_dim == 64);
  CHECK(model.setups[0].head_dim.value == 128);
  CHECK(model.setups[0].rope_theta.value == 10000000.0);
  CHECK(model.setups[0].layers.size() == 10);
}

TEST_CASE("InternLM2 dynamic NTK in GGUF: the reason given is GGUF's, not HunYuan's", "[hub-models]") {
  const Model model = load("testdata/hub/internvl/internvl2-2b-uav-finetune.json");
  const auto found = messages(model, "ENG304");
  REQUIRE(found.size() == 1);
  CHECK_FALSE(contains(found[0], "HunYuan"));
  CHECK(contains(found[0], "GGUF has no dynamic scaling type"));
}
