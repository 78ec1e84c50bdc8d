// transformers' RoPE rules of 2026 (modeling_rope_utils.py: nested_rope_parameter_keys, None entries, per-type
// partial_rotary_factor, axial) and the classes read by architecture, on the hub configs that need them.
#include <catch2/catch.hpp>

#include <algorithm>

#include <nlohmann/json.hpp>

#include "model_support.hpp"
#include "ropelens/check/check.hpp"
#include "ropelens/engines/engine_views.hpp"

using ropelens::Model;
using ropelens::RopeType;
using ropelens::test::any_note_contains;
using ropelens::test::load;
using ropelens::test::messages;

namespace {

int rope_layers(const Model& model) {
  return static_cast<int>(std::count_if(model.layers.begin(), model.layers.end(),
                                        [](const ropelens::Layer& layer) { return layer.uses_rope; }));
}

}  // namespace

TEST_CASE("A stray scalar beside per-layer-type dicts keeps each type's scaling (nested_rope_parameter_keys)",
          "[transformers-2026]") {
  const Model model = load("testdata/hub/laguna/laguna-xs.2-fp8.json");
  REQUIRE(model.setups.size() == 2);
  CHECK(messages(model, "CTX201").empty());
  CHECK(messages(model, "CFG007").empty());
  for (const auto& setup : model.setups)
    if (setup.name == "full_attention") CHECK(setup.type == RopeType::yarn);
  // The reading this replaces: the whole dict as one flat, unscaled RoPE, which the length check then flags.
  const Model flat = load("testdata/hub/laguna/laguna-xs.2-fp8.json",
                          {{"/rope_parameters", nlohmann::json{{"original_max_position_embeddings", 4096}}}});
  REQUIRE_FALSE(flat.setups.empty());
  for (const auto& setup : flat.setups) CHECK(setup.type == RopeType::default_rope);
  CHECK_FALSE(messages(flat, "CTX201").empty());
}

TEST_CASE("A null per-layer-type entry is a NoPE layer type", "[transformers-2026]") {
  const Model model = load("testdata/hub/laguna/laguna-xs.2-fp8.json", {{"/rope_parameters/full_attention", nullptr}});
  CHECK(rope_layers(model) == 30);
  CHECK(model.nope_layers().size() == 10);
  CHECK(any_note_contains(model, "/rope_parameters/full_attention is null: the 10 full_attention layers take no RoPE"));
  CHECK(messages(model, "CFG006").empty());
}

TEST_CASE("layer_rope_theta with zeros gives those layers no RoPE for any model_type", "[transformers-2026]") {
  for (const std::string type : {"granite_swa", "llama", "qwen3", "some_2026_model"}) {
    INFO(type);
    const Model model = load("testdata/configs/synthetic/granite-swa-layer-rope-theta.json",
                             {{"/model_type", type}, {"/architectures", nlohmann::json::array()}});
    CHECK(model.nope_layers() == std::vector<int>{0, 4, 8, 12, 16, 20});
    CHECK(rope_layers(model) == 18);
  }
}

TEST_CASE("An unknown model_type whose architectures is DeepseekV4ForCausalLM is read as DeepSeek-V4",
          "[transformers-2026]") {
  const Model model = load("testdata/hub/deepseek/deepseek-v4-flash-fp8-sglang.json");
  CHECK(model.model_type.value == "deepseek_ref");
  CHECK(model.read_as == "deepseek_v4");
  CHECK(messages(model, "CFG013").empty());
  CHECK(any_note_contains(model, "read with deepseek_v4 semantics from /architectures/0 'DeepseekV4ForCausalLM'"));
  REQUIRE(model.setups.size() == 2);
  for (const auto& setup : model.setups) CHECK(setup.rotary_dim == 64);
  const auto& compressed = model.setups[0].name == "compressed" ? model.setups[0] : model.setups[1];
  CHECK(compressed.rope_theta.value == 160000.0);
  CHECK(compressed.yarn.attention_factor->value == 1.0);
  // The engines dispatch on the class: vLLM's deepseek_v4.py gives the sliding layers deepseek_yarn too.
  const auto views = ropelens::engine_views(model, std::vector<ropelens::Engine>{ropelens::Engine::vllm}, 1048576);
  bool vllm_scales_sliding = false;
  for (const auto& view : views)
    for (const auto& setup_view : view.setups)
      for (const auto& note : setup_view.notes)
        vllm_scales_sliding = vllm_scales_sliding || note.text().find(
                                                         "gives the sliding_attention layers "
                                                         "deepseek_yarn too") != std::string::npos;
  CHECK(vllm_scales_sliding);
}

TEST_CASE("DeepSeek-V4 flat rope_parameters with rope_theta and partial 0.125 (Red Hat's re-save)",
          "[transformers-2026]") {
  const Model model = load("testdata/hub/deepseek/deepseek-v4-flash-nvfp4-fp8-redhat.json");
  REQUIRE(model.setups.size() == 2);
  for (const auto& setup : model.setups) CHECK(setup.rotary_dim == 64);
  const auto& compressed = model.setups[0].name == "compressed" ? model.setups[0] : model.setups[1];
  CHECK(compressed.rope_theta.value == 160000.0);
  CHECK(any_note_contains(model, "is not read for the compressed layers: DeepseekV4Config sets their rope_theta"));
  // The layout DeepseekV4Config serializes: {"main": …, "compress": …}, each entry as written.
  nlohmann::json nested = {{"main", {{"rope_type", "default"}, {"rope_theta", 10000}}},
                           {"compress",
                            {{"rope_type", "yarn"},
                             {"rope_theta", 160000},
                             {"factor", 16},
                             {"original_max_position_embeddings", 65536},
                             {"attention_factor", 1.0}}}};
  const Model labelled =
      load("testdata/hub/deepseek/deepseek-v4-flash-nvfp4-fp8-redhat.json", {{"/rope_parameters", nested}});
  REQUIRE(labelled.setups.size() == 2);
  CHECK(messages(labelled, "CFG007").empty());
  for (const auto& setup : labelled.setups)
    CHECK(setup.type == (setup.name == "compressed" ? RopeType::yarn : RopeType::default_rope));
}

TEST_CASE("minimax_m3_vl is in transformers: not labelled remote code, rotary_dim 64 of 128", "[transformers-2026]") {
  const Model model = load("testdata/hub/minimax/minimax-m3-nvfp4.json");
  CHECK(model.transformers_native);
  CHECK_FALSE(any_note_contains(model, "remote code"));
  REQUIRE(model.setups.size() == 1);
  CHECK(model.setups[0].rotary_dim == 64);
  CHECK(model.setups[0].rope_theta.value == 5e6);
}

TEST_CASE("axial is a known rope type read as default, and an integer factor is accepted", "[transformers-2026]") {
  const Model model = load("testdata/hub/qwen/qwen3.5-27b.json", {{"/text_config/rope_parameters/rope_type", "axial"}});
  CHECK(messages(model, "CFG002").empty());
  CHECK(model.setups[0].type == RopeType::default_rope);
  CHECK(any_note_contains(model, "'axial' is a vision tower's rope type"));
  const Model integer = load("testdata/hub/deepseek/deepseek-v4-flash-nvfp4.json");
  CHECK(messages(integer, "CFG001").empty());
}

TEST_CASE("CFG010 reports MiMo's one factor once for its two layer-type dicts", "[transformers-2026]") {
  const Model model = load("testdata/hub/mimo/mimo-v2-flash-native.json");
  CHECK(messages(model, "CFG010").size() == 1);
}

TEST_CASE("DeepSeek-V4's compress_ratios carry the MTP layer's entry: a note, not a schedule mismatch",
          "[transformers-2026]") {
  const Model model = load("testdata/hub/deepseek/deepseek-v4-pro-nvfp4.json");
  CHECK(model.num_layers.value == 61);
  CHECK(any_note_contains(model, "/compress_ratios has 62 entries for 61 layers: entry 61 (number 0) is the MTP"));
  CHECK(messages(model, "CFG006").empty());
}
