// Hybrid models: only the layers that attend have positions, rotary pairs and a KV cache (issue 11 §2).
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "model_support.hpp"
#include "ropelens/check/check.hpp"
#include "ropelens/engines/engine_views.hpp"
#include "ropelens/normalize/normalize.hpp"

using nlohmann::json;
using ropelens::Model;
using ropelens::test::load;

namespace {

std::vector<int> every(int first, int step, int count) {
  std::vector<int> out;
  for (int i = 0; i < count; ++i) out.push_back(first + i * step);
  return out;
}

Model normalized(json config) { return ropelens::normalize_json(config, "inline.json"); }

// What the rule `code` says about the model, as check prints it.
std::vector<std::string> problem_messages(const Model& model, const std::string& code) {
  ropelens::LoadedModel loaded;
  loaded.model = model;
  ropelens::CheckOptions options;
  options.selection.select = {code};
  std::vector<std::string> out;
  for (const auto& d : ropelens::check_model(std::move(loaded), options).diagnostics)
    out.push_back(d.where.pointer + ": " + d.message);
  return out;
}

}  // namespace

TEST_CASE("Qwen3-Next: full_attention_interval 4 leaves 12 RoPE layers of 48", "[hybrid]") {
  const Model model = load("testdata/configs/synthetic/qwen3-next-hybrid.json");
  CHECK(model.attention_layers() == every(3, 4, 12));
  CHECK(model.schedule_summary() == "48 layers: 36 linear_attention (no RoPE), 12 RoPE global");
  REQUIRE(model.hybrid_schedule_from);
  CHECK(model.hybrid_schedule_from->pointer == "/full_attention_interval");
  REQUIRE(model.setups.size() == 1);
  CHECK(model.setups[0].layers == every(3, 4, 12));
  CHECK(model.setups[0].rotary_dim == 64);  // head_dim 256 × partial_rotary_factor 0.25
  CHECK(model.nope_layers().empty());
  CHECK(model.issues.empty());

  // Every engine view holds the one setup of the 12 attention layers.
  for (const auto& view : ropelens::engine_views(model, ropelens::all_engines(), 131072)) {
    INFO(view.label);
    REQUIRE(view.setups.size() == 1);
    CHECK(model.setups[static_cast<std::size_t>(view.setups[0].setup)].layers.size() == 12);
  }
}

TEST_CASE("Qwen3-Next: the class default interval and an explicit layer_types agree", "[hybrid]") {
  json config = {
      {"model_type", "qwen3_next"}, {"num_hidden_layers", 8}, {"hidden_size", 2048}, {"num_attention_heads", 16}};
  const Model by_default = normalized(config);
  CHECK(by_default.attention_layers() == std::vector<int>{3, 7});
  CHECK(by_default.setups.at(0).rotary_dim == 64);  // class defaults head_dim 256, partial_rotary_factor 0.25
  config["layer_types"] = {"linear_attention", "linear_attention", "linear_attention", "full_attention",
                           "linear_attention", "linear_attention", "linear_attention", "full_attention"};
  const Model explicit_types = normalized(config);
  CHECK(explicit_types.attention_layers() == std::vector<int>{3, 7});
  CHECK(explicit_types.hybrid_schedule_from == std::nullopt);  // layer_types is the ordinary schedule
}

TEST_CASE("NemotronH: hybrid_override_pattern, with NoPE attention layers", "[hybrid]") {
  const Model model = load("testdata/configs/synthetic/nemotron-h-hybrid.json");
  CHECK(model.scheme == ropelens::PositionScheme::none);
  CHECK(model.attention_layers() == std::vector<int>{7, 16, 25, 34});
  CHECK(model.nope_layers() == std::vector<int>{7, 16, 25, 34});
  CHECK(model.setups.empty());
  CHECK(model.schedule_summary() == "52 layers: 24 linear_attention (no RoPE), 24 mlp (no attention), 4 NoPE global");
  CHECK(model.hybrid_schedule_from->pointer == "/hybrid_override_pattern");
}

TEST_CASE("NemotronH counts its layers from the pattern, as NemotronHConfig does", "[hybrid]") {
  const Model model = normalized({{"model_type", "nemotron_h"},
                                  {"num_hidden_layers", 3},
                                  {"hybrid_override_pattern", "M-M*E"},
                                  {"num_attention_heads", 8}});
  CHECK(model.num_layers.value == 5);
  CHECK(model.num_layers.from.origin == ropelens::Origin::derived);
  CHECK(model.attention_layers() == std::vector<int>{3});
  CHECK(model.schedule_summary() ==
        "5 layers: 2 linear_attention (no RoPE), 1 mlp (no attention), 1 NoPE global, "
        "1 moe (no attention)");
}

TEST_CASE("Jamba: attn_layer_period 8 and offset 4 leave 4 NoPE attention layers of 32", "[hybrid]") {
  const Model model = load("testdata/configs/synthetic/jamba-hybrid.json");
  CHECK(model.scheme == ropelens::PositionScheme::none);
  CHECK(model.attention_layers() == every(4, 8, 4));
  CHECK(model.nope_layers() == every(4, 8, 4));
  CHECK(model.schedule_summary() == "32 layers: 28 mamba (no RoPE), 4 NoPE global");
}

TEST_CASE("the other hybrid schedules: layers_block_type, attn_layer_indices, attn_type_list, kda_layers, LFM2, Zamba",
          "[hybrid]") {
  SECTION("Granite 4 hybrid: layers_block_type, NoPE unless position_embedding_type is rope") {
    json config = {{"model_type", "granitemoehybrid"},
                   {"num_hidden_layers", 4},
                   {"hidden_size", 1024},
                   {"num_attention_heads", 8},
                   {"layers_block_type", {"mamba", "attention", "mamba", "attention"}}};
    const Model nope = normalized(config);
    CHECK(nope.scheme == ropelens::PositionScheme::none);
    CHECK(nope.attention_layers() == std::vector<int>{1, 3});
    config["position_embedding_type"] = "rope";
    const Model rope = normalized(config);
    CHECK(rope.scheme == ropelens::PositionScheme::rope);
    REQUIRE(rope.setups.size() == 1);
    CHECK(rope.setups[0].layers == std::vector<int>{1, 3});
  }
  SECTION("Bamba: attn_layer_indices") {
    const Model model = normalized({{"model_type", "bamba"},
                                    {"num_hidden_layers", 6},
                                    {"hidden_size", 1024},
                                    {"num_attention_heads", 8},
                                    {"attn_layer_indices", {2, 5}}});
    CHECK(model.attention_layers() == std::vector<int>{2, 5});
    CHECK(model.setups.at(0).rotary_dim == 64);  // head_dim 128 × the hard-coded partial_rotary_factor 0.5
  }
  SECTION("MiniMax remote code: attn_type_list, 1 = softmax attention") {
    const Model model = normalized({{"model_type", "minimax"},
                                    {"num_hidden_layers", 4},
                                    {"hidden_size", 1024},
                                    {"num_attention_heads", 8},
                                    {"attn_type_list", {0, 0, 0, 1}}});
    CHECK(model.attention_layers() == std::vector<int>{3});
  }
  SECTION("Kimi-Linear: kda_layers count from 1") {
    const Model model = normalized({{"model_type", "kimi_linear"},
                                    {"num_hidden_layers", 4},
                                    {"hidden_size", 1024},
                                    {"num_attention_heads", 8},
                                    {"linear_attn_config", {{"kda_layers", {1, 2, 3}}, {"full_attn_layers", {4}}}}});
    CHECK(model.attention_layers() == std::vector<int>{3});
  }
  SECTION("LFM2 before layer_types: full_attn_idxs, the rest are convolutions") {
    const Model model = normalized({{"model_type", "lfm2"},
                                    {"num_hidden_layers", 4},
                                    {"hidden_size", 1024},
                                    {"num_attention_heads", 8},
                                    {"full_attn_idxs", {1, 3}}});
    CHECK(model.schedule_summary() == "4 layers: 2 conv (no RoPE), 2 RoPE global");
  }
  SECTION("Zamba: two Mamba layers and a hybrid one, then every 6th from offset 4") {
    const Model model = normalized({{"model_type", "zamba"}, {"num_hidden_layers", 14}, {"num_attention_heads", 8}});
    CHECK(model.attention_layers() == std::vector<int>{2, 7, 13});  // 3 + (4, 10)
  }
}

TEST_CASE("unknown values in a hybrid schedule are reported, not guessed", "[hybrid][CFG006]") {
  const Model pattern =
      normalized({{"model_type", "nemotron_h"}, {"num_hidden_layers", 3}, {"hybrid_override_pattern", "M*X"}});
  CHECK(problem_messages(pattern, "CFG006") ==
        std::vector<std::string>{"/hybrid_override_pattern: character 2 'X' of hybrid_override_pattern is not a layer "
                                 "kind (M mamba, * attention, "
                                 "- MLP, E MoE)"});
  CHECK(pattern.hybrid_schedule_from == std::nullopt);

  const Model types = normalized({{"model_type", "qwen3_next"},
                                  {"num_hidden_layers", 2},
                                  {"layers_block_type", {"linear_attention", "retention"}}});
  CHECK(problem_messages(types, "CFG006") ==
        std::vector<std::string>{"/layers_block_type/1: unknown layer type 'retention': transformers refuses to load "
                                 "the config (ropelens reads it as full_attention)"});

  const Model indices = normalized({{"model_type", "bamba"}, {"num_hidden_layers", 4}, {"attn_layer_indices", {1, 9}}});
  CHECK(problem_messages(indices, "CFG006") ==
        std::vector<std::string>{"/attn_layer_indices/1: layer index number 9 is not one of the 4 layers"});

  const Model minimax = normalized({{"model_type", "minimax"}, {"num_hidden_layers", 2}, {"attn_type_list", {1, 2}}});
  CHECK(problem_messages(minimax, "CFG006") ==
        std::vector<std::string>{
            "/attn_type_list/1: attn_type_list entries must be 1 (attention) or 0 (linear attention), got number 2"});
}

TEST_CASE("window-limited layers count only the layers that attend", "[hybrid][CTX203]") {
  json config = {{"model_type", "qwen3_next"},
                 {"num_hidden_layers", 8},
                 {"sliding_window", 4096},
                 {"layer_types",
                  {"linear_attention", "sliding_attention", "linear_attention", "full_attention", "linear_attention",
                   "sliding_attention", "linear_attention", "full_attention"}}};
  ropelens::LoadedModel loaded;
  loaded.model = normalized(config);
  CHECK(loaded.model.schedule_summary() ==
        "8 layers: 4 linear_attention (no RoPE), 2 RoPE sliding 4096, 2 RoPE global");
  ropelens::CheckOptions options;
  options.target_tokens = 131072;
  options.selection.select = {"CTX203"};
  const auto found = ropelens::check_model(std::move(loaded), options).diagnostics;
  REQUIRE(found.size() == 1);
  CHECK(found[0].message ==
        "at 131072 tokens 2 of 4 layers use sliding attention within 4096 tokens and never see "
        "longer distances; 2 layers attend globally");
}
