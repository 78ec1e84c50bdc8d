// Near misses of known top-level attributes (issue 26): `rope_thetta` is named, vendor keys and real configs are not.
#include <catch2/catch.hpp>

#include <filesystem>
#include <variant>

#include <nlohmann/json.hpp>

#include "ropelens/normalize/normalize.hpp"
#include "support.hpp"

using nlohmann::json;
using ropelens::MisspelledConfigKey;

namespace {

json llama() {
  return {{"model_type", "llama"},           {"hidden_size", 4096},
          {"num_attention_heads", 32},       {"num_hidden_layers", 32},
          {"max_position_embeddings", 8192}, {"rope_theta", 500000.0}};
}

struct Typo {
  std::string pointer;
  MisspelledConfigKey detail;
};

std::vector<Typo> typos(const json& config) {
  std::vector<Typo> out;
  for (const auto& issue : ropelens::normalize_json(config, "inline.json").issues)
    if (const auto* typo = std::get_if<MisspelledConfigKey>(&issue.detail)) out.push_back({issue.pointer, *typo});
  return out;
}

json renamed(json config, const std::string& from, const std::string& to) {
  config[to] = config[from];
  config.erase(from);
  return config;
}

}  // namespace

TEST_CASE("a near miss of a key ropelens reads names the key meant", "[normalize][CFG012]") {
  const std::vector<std::pair<std::string, std::string>> misspellings = {
      {"rope_thetta", "rope_theta"},
      {"max_position_embedding", "max_position_embeddings"},
      {"num_hiden_layers", "num_hidden_layers"},
      {"Rope_Theta", "rope_theta"},  // transformers' attributes are case-sensitive
  };
  for (const auto& [written, meant] : misspellings) {
    INFO(written);
    const auto found = typos(renamed(llama(), meant, written));
    REQUIRE(found.size() == 1);
    CHECK(found[0].pointer == "/" + written);
    CHECK(found[0].detail.key == written);
    CHECK(found[0].detail.meant == meant);
    CHECK(found[0].detail.read_by_ropelens);
    CHECK_FALSE(found[0].detail.meant_also_set);
  }
}

TEST_CASE("misspelled rope_scaling and partial_rotary_factor are caught too", "[normalize][CFG012]") {
  json config = llama();
  config["rope_scalling"] = {{"rope_type", "linear"}, {"factor", 2.0}};
  config["partial_rotary_factr"] = 0.5;
  const auto found = typos(config);
  REQUIRE(found.size() == 2);
  CHECK(found[0].detail.meant == "partial_rotary_factor");
  CHECK(found[1].detail.meant == "rope_scaling");
}

TEST_CASE("a key in text_config points into text_config", "[normalize][CFG012]") {
  json inner = llama();
  inner.erase("rope_theta");
  inner["rope_thetta"] = 1e6;
  const auto found = typos({{"model_type", "llava"}, {"text_config", inner}});
  REQUIRE(found.size() == 1);
  CHECK(found[0].pointer == "/text_config/rope_thetta");
  CHECK(found[0].detail.meant == "rope_theta");
}

TEST_CASE("a near miss of an attribute ropelens does not read is recorded as such", "[normalize][CFG012]") {
  json config = llama();
  config["intermediate_sise"] = 14336;
  config["rope_thetta"] = 1.0;  // rope_theta is written as well
  const auto found = typos(config);
  REQUIRE(found.size() == 2);
  CHECK(found[0].detail.meant == "intermediate_size");
  CHECK_FALSE(found[0].detail.read_by_ropelens);
  CHECK(found[1].detail.meant == "rope_theta");
  CHECK(found[1].detail.meant_also_set);
}

TEST_CASE("vendor keys, loading entries and unknown keys that are no near miss stay silent", "[normalize][CFG012]") {
  json config = llama();
  config["transformers_version"] = "4.46.0";
  config["torch_dtype"] = "bfloat16";
  config["dtype"] = "bfloat16";
  config["quantization_config"] = {{"quant_method", "fp8"}};
  config["auto_map"] = {{"AutoConfig", "configuration_acme.AcmeConfig"}};
  config["_name_or_path"] = "acme/model";
  config["boa_token_id"] = 7;        // a special token: transformers knows them by the suffix
  config["architecture"] = "llama";  // a vendor field beside `architectures`
  config["acme_training_recipe"] = "sft-v2";
  config["rope"] = true;  // too short to guess at
  config["use_logn_attn"] = false;
  CHECK(typos(config).empty());
}

TEST_CASE("no key of any published config is taken for a misspelling", "[normalize][CFG012][corpus]") {
  namespace fs = std::filesystem;
  int configs = 0;
  for (const auto& entry : fs::recursive_directory_iterator(ropelens::test::source_path("testdata/configs"))) {
    if (entry.path().extension() != ".json") continue;
    const json config = json::parse(ropelens::test::read_file(entry.path().string()), nullptr, false);
    if (!ropelens::is_model_config(config)) continue;
    ++configs;
    for (const auto& typo : typos(config))
      FAIL_CHECK(entry.path().string() << ": " << typo.pointer << " → " << typo.detail.meant);
  }
  CHECK(configs >= 60);  // /work/shared/configs holds a subset of these
}

TEST_CASE("a near miss of a key that marks a model config names that key", "[normalize][CFG012]") {
  for (const auto& key : ropelens::model_config_keys()) {
    INFO(key);
    const std::string near_miss = key + "x";
    if (near_miss.size() <= 10) continue;  // one edit from a short key is too close to call
    json with_typo = {{"model_type", "llama"}, {near_miss, 1}};
    const auto found = typos(with_typo);
    REQUIRE(found.size() == 1);
    CHECK(found[0].detail.meant == key);
  }
}

TEST_CASE("Granite 4.0-H's Mamba-2 keys are GraniteMoeHybridConfig attributes, not misspellings",
          "[normalize][CFG012]") {
  json granite = {{"model_type", "granitemoehybrid"},
                  {"hidden_size", 1536},
                  {"num_attention_heads", 12},
                  {"num_hidden_layers", 4},
                  {"mamba_n_heads", 48},
                  {"mamba_d_head", 64},
                  {"mamba_n_groups", 1},
                  {"mamba_d_state", 128},
                  {"mamba_d_conv", 4},
                  {"mamba_expand", 2},
                  {"mamba_chunk_size", 256},
                  {"mamba_conv_bias", true},
                  {"layer_types", {"mamba", "attention", "mamba", "mamba"}}};
  CHECK(typos(granite).empty());
  // One edit from an attribute is still a near miss.
  const auto found = typos(renamed(granite, "mamba_n_heads", "mamba_n_heeds"));
  REQUIRE(found.size() == 1);
  CHECK(found[0].detail.meant == "mamba_n_heads");
}
