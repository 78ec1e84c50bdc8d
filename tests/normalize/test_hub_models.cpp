// The hub sample's models whose reading depends on their own class (docs/engines.md "Semantics by architecture"):
// EXAONE 4's global NoPE, OLMo 3's unscaled sliding layers, Llama 3.2 Vision's cross-attention layers, Ministral 3's
// query scale, Llama-Nemotron's FFN-only blocks, Molmo's Llama-like rotary, NemotronH's Mamba-2 keys, and the
// transformers versions that have no class for a model_type. Every figure is the published config's.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "model_support.hpp"
#include "ropelens/engines/engine_views.hpp"

using ropelens::AttentionKind;
using ropelens::Diagnostic;
using ropelens::EngineVersion;
using ropelens::Model;
using ropelens::RopeType;
using ropelens::Severity;
using ropelens::test::any_note_contains;
using ropelens::test::contains;
using ropelens::test::findings;
using ropelens::test::load;

namespace {

std::vector<int> layers_where(const Model& model, bool (*wanted)(const ropelens::Layer&)) {
  std::vector<int> out;
  for (const auto& layer : model.layers)
    if (wanted(layer)) out.push_back(layer.index);
  return out;
}

bool rotates(const ropelens::Layer& layer) { return layer.uses_rope; }
bool attends(const ropelens::Layer& layer) { return layer.attends; }

std::vector<std::string> messages(const std::vector<Diagnostic>& found) {
  std::vector<std::string> out;
  for (const auto& d : found) out.push_back(d.message);
  return out;
}

}  // namespace

TEST_CASE("EXAONE 4.0: global NoPE, only the 48 sliding layers rotate (llama3 x16 over 8192)") {
  const Model model = load("testdata/hub/exaone/exaone-4.0-32b.json");
  REQUIRE(model.layers.size() == 64);
  const auto rotating = layers_where(model, rotates);
  CHECK(rotating.size() == 48);
  for (int full : {3, 7, 11, 63}) {
    CHECK_FALSE(model.layers[static_cast<std::size_t>(full)].uses_rope);
    CHECK(model.layers[static_cast<std::size_t>(full)].attends);
  }
  CHECK(model.layers[0].uses_rope);
  REQUIRE(model.setups.size() == 1);
  CHECK(model.setups[0].type == RopeType::llama3);
  CHECK(model.setups[0].attention == AttentionKind::sliding);
  CHECK(model.setups[0].window_tokens->value == 4096);
  CHECK(model.setups[0].factor->value == 16.0);
  CHECK(model.setups[0].rope_theta.value == 1e6);
  CHECK(any_note_contains(model, "global NoPE"));
}

TEST_CASE("EXAONE 4.5: the text model (exaone4_5_text, read as exaone4) has the same 16 NoPE full layers") {
  const Model model = load("testdata/hub/exaone/exaone-4.5-33b.json");
  CHECK(model.model_type.value == "exaone4_5_text");
  CHECK(layers_where(model, rotates).size() == 48);
  CHECK_FALSE(model.layers[3].uses_rope);
  CHECK(model.max_position_embeddings.value == 262144);
}

TEST_CASE("EXAONE 4 without a sliding window: every layer rotates (Exaone4Attention: sliding_window is None)") {
  const Model model = load("testdata/hub/exaone/exaone-4.0-32b.json", {{"/sliding_window", nullptr}});
  CHECK(layers_where(model, rotates).size() == 64);
}

TEST_CASE("OLMo 3.1: sliding layers default RoPE at theta 5e5, the 16 full layers YaRN x8 over 8192") {
  const Model model = load("testdata/hub/olmo/olmo-3.1-32b-instruct.json");
  REQUIRE(model.setups.size() == 2);
  const auto& sliding = model.setups[0];
  const auto& full = model.setups[1];
  CHECK(sliding.name == "sliding_attention");
  CHECK(sliding.type == RopeType::default_rope);
  CHECK(sliding.layers.size() == 48);
  CHECK(sliding.rope_theta.value == 500000.0);
  CHECK(full.name == "full_attention");
  CHECK(full.type == RopeType::yarn);
  CHECK(full.layers == std::vector<int>{3, 7, 11, 15, 19, 23, 27, 31, 35, 39, 43, 47, 51, 55, 59, 63});
  CHECK(full.factor->value == 8.0);
  CHECK(full.original_max_position_embeddings->value == 8192);
  CHECK(full.yarn.attention_factor->value == Approx(1.2079441541679836));
}

TEST_CASE("Llama 3.2 Vision: the 8 cross_attention_layers take no positions, 32 self-attention layers rotate") {
  for (const char* file : {"testdata/hub/llama/llama-3.2-11b-vision-instruct.json",
                           "testdata/hub/llama/llama-3.2-90b-vision-instruct.json"}) {
    INFO(file);
    const Model model = load(file);
    const auto attending = layers_where(model, attends);
    CHECK(layers_where(model, rotates) == attending);
    CHECK(any_note_contains(model, "cross-attention layers"));
    for (const auto& layer : model.layers)
      if (!layer.attends) CHECK(layer.layer_type == "cross_attention");
  }
  const Model eleven = load("testdata/hub/llama/llama-3.2-11b-vision-instruct.json");
  CHECK(layers_where(eleven, attends).size() == 32);
  for (int cross : {3, 8, 13, 18, 23, 28, 33, 38}) CHECK_FALSE(eleven.layers[static_cast<std::size_t>(cross)].attends);
  CHECK(eleven.setups[0].type == RopeType::llama3);
  CHECK(eleven.setups[0].rope_theta.value == 500000.0);
}

TEST_CASE("Ministral 3: llama_4_scaling_beta is known and its query scale stated (1 + 0.1 ln 48 = 1.3871)") {
  CHECK(findings("testdata/hub/mistral/devstral-small-2-24b-instruct-2512.json", "CFG007").empty());
  CHECK(findings("testdata/hub/mistral/devstral-2-123b-instruct-2512.json", "CFG007").empty());
  const Model small = load("testdata/hub/mistral/devstral-small-2-24b-instruct-2512.json");
  CHECK(small.model_type.value == "ministral3");
  CHECK(small.setups[0].type == RopeType::yarn);
  CHECK(any_note_contains(small, "x1.3871 at position 393215"));
  CHECK(1.0 + 0.1 * std::log(1.0 + std::floor(393215.0 / 8192.0)) == Approx(1.38712).epsilon(1e-5));
  const Model large = load("testdata/hub/mistral/devstral-2-123b-instruct-2512.json");
  CHECK(any_note_contains(large, "llama_4_scaling_beta 0 "));
  CHECK(any_note_contains(large, "x1.0000 at position 262143"));
}

TEST_CASE("Llama-3.3-Nemotron-Super-49B: 31 of 80 blocks have no attention, 49 attend with 8 KV heads") {
  const Model model = load("testdata/hub/nemotron/llama-3_3-nemotron-super-49b-v1.json");
  REQUIRE(model.layers.size() == 80);
  const auto attending = layers_where(model, attends);
  CHECK(attending.size() == 49);
  CHECK(layers_where(model, rotates) == attending);
  for (int no_op : {6, 7, 11, 42, 51, 53, 70}) CHECK_FALSE(model.layers[static_cast<std::size_t>(no_op)].attends);
  CHECK(model.layers[52].attends);
  REQUIRE(model.kv.num_kv_heads);
  CHECK(model.kv.num_kv_heads->value == 8);  // 64 heads // n_heads_in_group 8
  CHECK(model.setups[0].type == RopeType::llama3);
  CHECK(findings("testdata/hub/nemotron/llama-3_3-nemotron-super-49b-v1.json", "CFG013").empty());
}

TEST_CASE("Molmo: read as vLLM's molmo.py runs it, rotate-half default RoPE at rope_theta 1e6 over 128 dims") {
  const Model model = load("testdata/hub/molmo/molmo-7b-d-0924-bnb-nf4.json");
  CHECK(findings("testdata/hub/molmo/molmo-7b-d-0924-bnb-nf4.json", "CFG013").empty());
  REQUIRE(model.setups.size() == 1);
  CHECK(model.setups[0].type == RopeType::default_rope);
  CHECK(model.setups[0].rope_theta.value == 1e6);
  CHECK(model.setups[0].rotary_dim == 128);
  CHECK(model.pairing.value == ropelens::Pairing::rotate_half);
  CHECK(any_note_contains(model, "MolmoForCausalLM"));
}

TEST_CASE("NemotronH: n_groups is Mamba-2's group count, not a misspelled n_group") {
  for (const char* file : {"testdata/hub/nemotron/nemotron-h-56b-base-8k.json",
                           "testdata/hub/nemotron/nvidia-nemotron-3-nano-30b-a3b-bf16.json",
                           "testdata/hub/nemotron/nvidia-nemotron-3-super-120b-a12b-fp8.json",
                           "testdata/hub/nemotron/nvidia-nemotron-3-ultra-550b-a55b-bf16.json"}) {
    INFO(file);
    CHECK(findings(file, "CFG012").empty());
  }
}

TEST_CASE("Engine versions without the class: not compared, said per version") {
  const Model olmo = load("testdata/hub/olmo/olmo-3.1-32b-instruct.json");
  for (auto version : {EngineVersion::transformers_4_4x, EngineVersion::transformers_4_5x}) {
    const auto view = ropelens::engine_view(olmo, version, 65536);
    REQUIRE(view.no_class);
    CHECK(contains(*view.no_class, "before transformers 4.57"));
  }
  CHECK_FALSE(ropelens::engine_view(olmo, EngineVersion::transformers_v5, 65536).no_class);

  const Model gpt_oss = load("testdata/hub/gpt-oss/gpt-oss-120b.json");
  CHECK(ropelens::engine_view(gpt_oss, EngineVersion::transformers_4_4x, 131072).no_class);
  CHECK_FALSE(ropelens::engine_view(gpt_oss, EngineVersion::transformers_4_5x, 131072).no_class);  // 4.55.0

  const auto eng306 = findings("testdata/hub/mistral/devstral-small-2-24b-instruct-2512.json", "ENG306");
  REQUIRE(eng306.size() == 2);
  for (const auto& d : eng306) {
    CHECK(d.severity == Severity::info);
    CHECK(contains(d.message, "before transformers 5.0 (#42498"));
  }
  // The 4.4x magnitude 0.1 ln 48 + 1 is no longer set against the versions that have the class.
  for (const auto& m : messages(findings("testdata/hub/mistral/devstral-small-2-24b-instruct-2512.json", "ENG303")))
    CHECK_FALSE(contains(m, "transformers 4.4x"));
  CHECK(findings("testdata/hub/olmo/olmo-3.1-32b-instruct.json", "ENG302").empty());
}
