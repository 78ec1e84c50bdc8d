// Engine views against the worked examples of docs/engines.md, "Worked examples" (numpy float64 references).
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <sstream>

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "ropelens/engines/engine_report.hpp"
#include "ropelens/engines/method_override.hpp"
#include "ropelens/render/render.hpp"
#include "engines/llama_cpp/llama_cpp_math.hpp"
#include "ropelens/load/model_loader.hpp"
#include "ropelens/normalize/normalize.hpp"
#include "model_support.hpp"
#include "support.hpp"

using namespace ropelens;
using nlohmann::json;
using ropelens::test::load;
using ropelens::test::qwen3_yarn4;
using ropelens::test::source_path;

namespace {

const EngineSetupView& only_setup(const EngineView& view) {
  REQUIRE(view.setups.size() == 1);
  return view.setups.front();
}

EngineSetupView global(const Model& model, EngineVersion version, std::int64_t target) {
  EngineView view = engine_view(model, version, target);
  for (std::size_t i = 0; i < model.setups.size(); ++i)
    if (!model.setups[i].window_tokens) return view.setups[i];
  return view.setups.front();
}

const std::vector<EngineVersion> kAllVersions = {
    EngineVersion::transformers_v5, EngineVersion::transformers_4_5x, EngineVersion::transformers_4_4x,
    EngineVersion::vllm_current,    EngineVersion::vllm_legacy,       EngineVersion::vllm_dynamic_41277,
    EngineVersion::sglang,          EngineVersion::llama_cpp};

double largest_ratio(const EngineSetupView& a, const EngineSetupView& b) {
  double worst = 1.0;
  for (std::size_t i = 0; i < a.inv_freq.size(); ++i)
    worst = std::max(worst, std::max(a.inv_freq[i] / b.inv_freq[i], b.inv_freq[i] / a.inv_freq[i]));
  return worst;
}

}  // namespace

TEST_CASE("engines: names, selection and versions") {
  CHECK(parse_engine("llama.cpp") == Engine::llama_cpp);
  CHECK(parse_engine("vllm") == Engine::vllm);
  CHECK_FALSE(parse_engine("tgi").has_value());
  CHECK(parse_engine_selection("all").size() == 7);
  CHECK(parse_engine_selection("sglang") == std::vector<Engine>{Engine::sglang});
  CHECK_THROWS_AS(parse_engine_selection("tgi"), std::invalid_argument);
  CHECK(label_of(EngineVersion::vllm_current) == "vLLM main (unreleased)");
  CHECK(engine_of(EngineVersion::vllm_dynamic_41277) == Engine::vllm);
}

TEST_CASE("Qwen3 + YaRN x4: correction dims 23-40 in every engine") {
  const Model model = qwen3_yarn4();
  for (auto version : kAllVersions) {
    if (version == EngineVersion::transformers_4_4x) continue;  // its range is computed on max_position_embeddings
    INFO(label_of(version));
    const auto view = only_setup(engine_view(model, version, 131072));
    REQUIRE(view.correction_low.has_value());
    CHECK(*view.correction_low == 23.0);
    CHECK(*view.correction_high == 40.0);
  }
}

TEST_CASE("Qwen3 + YaRN x4: transformers 4.5x uses factor 1.25 (#38224)") {
  const Model model = qwen3_yarn4();
  const auto v5 = only_setup(engine_view(model, EngineVersion::transformers_v5, 131072));
  const auto v45 = only_setup(engine_view(model, EngineVersion::transformers_4_5x, 131072));
  CHECK(v5.factor == 4.0);
  CHECK(v45.factor == 1.25);
  CHECK(v5.rope_magnitude == Approx(1.1386).epsilon(1e-4));
  CHECK(v45.rope_magnitude == Approx(1.0223).epsilon(1e-4));
  CHECK(v5.rope_magnitude * v5.rope_magnitude == Approx(1.297).epsilon(1e-3));
  CHECK(v45.rope_magnitude * v45.rope_magnitude == Approx(1.045).epsilon(1e-3));
  // The low-frequency pairs: 4.5x divides by 1.25 instead of 4, so they are 3.2x faster.
  CHECK(v45.inv_freq.back() / v5.inv_freq.back() == Approx(3.2).epsilon(1e-9));
  // vLLM (both versions), SGLang and llama.cpp agree with transformers v5.
  for (auto version :
       {EngineVersion::vllm_current, EngineVersion::vllm_legacy, EngineVersion::sglang, EngineVersion::llama_cpp}) {
    INFO(label_of(version));
    const auto view = only_setup(engine_view(model, version, 131072));
    CHECK(max_relative_difference(view, v5) < kEngineRelativeThreshold);
    CHECK(view.rope_magnitude == Approx(1.1386).epsilon(1e-4));
  }
}

TEST_CASE("Qwen3 + YaRN x4: maximum lengths per engine") {
  const Model model = qwen3_yarn4();
  const auto legacy = engine_view(model, EngineVersion::vllm_legacy, 131072).length;
  CHECK(legacy.limit_tokens == 131072);
  CHECK(legacy.default_tokens == 131072);
  CHECK(legacy.beyond == LimitAction::error);
  CHECK(engine_view(model, EngineVersion::vllm_current, 131072).length.limit_tokens == 40960);
  CHECK(engine_view(model, EngineVersion::sglang, 131072).length.limit_tokens == 40960);
  const auto llama = engine_view(model, EngineVersion::llama_cpp, 131072).length;
  CHECK(llama.limit_tokens == 40960);
  CHECK(llama.beyond == LimitAction::warning);
  CHECK(llama.message == "n_ctx_seq (131072) > n_ctx_train (40960) -- possible training context overflow");
  CHECK_FALSE(engine_view(model, EngineVersion::transformers_v5, 131072).length.limit_tokens.has_value());
  CHECK(build_engine_report(model, all_engines(), 131072).comparison.lengths_differ);
}

TEST_CASE("llama.cpp: the float32 theta iteration drifts about 2e-6 from float64") {
  const auto fp32 = ggml_fp32_theta_iteration(1e6, 128, 64);
  const auto fp64 = base_inverse_frequencies(1e6, 128, 64);
  double worst = 0.0;
  for (std::size_t i = 0; i < 64; ++i)
    worst = std::max(worst, relative_difference(static_cast<double>(fp32[i]), fp64[i]));
  CHECK(worst > 1e-7);  // visible, not a float64 computation in disguise
  CHECK(worst <= 2.2e-6);
  // Through the whole runtime (YaRN blend in float32) the difference stays the same size.
  const Model model = qwen3_yarn4();
  const double runtime =
      max_relative_difference(only_setup(engine_view(model, EngineVersion::llama_cpp, 131072)),
                              only_setup(engine_view(model, EngineVersion::transformers_v5, 131072)));
  CHECK(runtime > 1e-7);
  CHECK(runtime <= 2.2e-6);
}

TEST_CASE("DeepSeek-V3: dims 10-23, magnitude 1, softmax x1.874 in every engine") {
  const Model model = load("testdata/configs/deepseek/deepseek-v3.json");
  const double key_dim_sqrt = std::sqrt(192.0);
  for (auto version : {EngineVersion::transformers_v5, EngineVersion::vllm_current, EngineVersion::vllm_legacy,
                       EngineVersion::sglang, EngineVersion::llama_cpp}) {
    INFO(label_of(version));
    const auto view = only_setup(engine_view(model, version, 163840));
    CHECK(*view.correction_low == 10.0);
    CHECK(*view.correction_high == 23.0);
    CHECK(view.rope_magnitude == Approx(1.0).epsilon(1e-6));
    CHECK(view.softmax_multiplier == Approx(1.8739).epsilon(1e-4));
    CHECK(view.softmax_multiplier / key_dim_sqrt == Approx(0.13523).epsilon(1e-4));
  }
  // An engine computing the range on max_position_embeddings (transformers 4.4x) gets dims 23-36.
  const auto on_declared = only_setup(engine_view(model, EngineVersion::transformers_4_4x, 163840));
  CHECK(*on_declared.correction_low == 23.0);
  CHECK(*on_declared.correction_high == 36.0);
  CHECK(largest_ratio(on_declared, only_setup(engine_view(model, EngineVersion::transformers_v5, 163840))) ==
        Approx(40.0).epsilon(1e-9));
  // A DEEPSEEK2 GGUF read without the loader's /0.1 gets kq x1.075 instead of x1.874.
  CHECK(llama_cpp_deepseek2_kq_multiplier(1.0, 40.0) == Approx(1.8739).epsilon(1e-4));
  CHECK(llama_cpp_deepseek2_kq_multiplier(0.1, 40.0) == Approx(1.0752).epsilon(1e-4));
}

TEST_CASE("DeepSeek-V3's mscale pair on a non-MLA model: vLLM before #56446 ignores it (1.3689)") {
  const Model model = normalize_json(json::parse(R"({"model_type": "llama", "hidden_size": 4096,
      "num_attention_heads": 64, "num_hidden_layers": 2, "max_position_embeddings": 163840, "rope_theta": 10000,
      "rope_scaling": {"rope_type": "yarn", "factor": 40, "original_max_position_embeddings": 4096,
                       "mscale": 1.0, "mscale_all_dim": 1.0}})"),
                                     "yarn-mscale-pair");
  CHECK(only_setup(engine_view(model, EngineVersion::transformers_v5, 163840)).rope_magnitude == Approx(1.0));
  CHECK(only_setup(engine_view(model, EngineVersion::vllm_current, 163840)).rope_magnitude == Approx(1.0));
  CHECK(only_setup(engine_view(model, EngineVersion::vllm_legacy, 163840)).rope_magnitude ==
        Approx(1.3689).epsilon(1e-4));
}

TEST_CASE("Ministral-3-like YaRN: 1.2773 in vLLM before #56446, 1.0 elsewhere") {
  const Model model = normalize_json(json::parse(R"({"model_type": "ministral3", "hidden_size": 5120,
      "head_dim": 128, "num_attention_heads": 32, "num_hidden_layers": 2, "max_position_embeddings": 262144,
      "rope_parameters": {"rope_type": "yarn", "rope_theta": 1000000.0, "factor": 16.0,
                          "original_max_position_embeddings": 16384, "beta_fast": 32.0, "beta_slow": 1.0,
                          "mscale": 1.0, "mscale_all_dim": 1.0}})"),
                                     "ministral3");
  for (auto version :
       {EngineVersion::transformers_v5, EngineVersion::vllm_current, EngineVersion::sglang, EngineVersion::llama_cpp}) {
    INFO(label_of(version));
    CHECK(only_setup(engine_view(model, version, 262144)).rope_magnitude == Approx(1.0).epsilon(1e-6));
  }
  CHECK(only_setup(engine_view(model, EngineVersion::vllm_legacy, 262144)).rope_magnitude ==
        Approx(1.2773).epsilon(1e-4));
  const auto report = build_engine_report(model, all_engines(), 262144);
  CHECK_FALSE(report.comparison.magnitudes.empty());
}

TEST_CASE("Llama-3.1 llama3 scaling: every engine agrees to ~1.4e-6") {
  const Model model = load("testdata/configs/synthetic/llama3.json");
  const auto report = build_engine_report(model, all_engines(), 131072);
  CHECK(report.comparison.frequencies.empty());
  CHECK(report.comparison.max_frequency_relative > 1e-7);
  CHECK(report.comparison.max_frequency_relative < 2e-6);
  CHECK(report.comparison.magnitudes.empty());
  // vLLM's three versions behave identically here and are merged into one view.
  const auto vllm = std::count_if(report.views.begin(), report.views.end(),
                                  [](const EngineView& v) { return engine_of(v.version) == Engine::vllm; });
  CHECK(vllm == 1);
  const auto llama = engine_view(model, EngineVersion::llama_cpp, 131072);
  REQUIRE(llama.gguf.has_value());
  CHECK(llama.gguf->lost.empty());
  CHECK(llama.gguf->tensors.size() == 1);
}

TEST_CASE("llama3 with original 32768 inside rope_scaling: the converter still uses 8192") {
  const Model model = normalize_json(json::parse(R"({"model_type": "llama", "hidden_size": 4096,
      "num_attention_heads": 32, "num_hidden_layers": 2, "max_position_embeddings": 131072, "rope_theta": 500000.0,
      "rope_scaling": {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                       "original_max_position_embeddings": 32768}})"),
                                     "llama3-32k");
  const auto hf = only_setup(engine_view(model, EngineVersion::transformers_v5, 131072));
  const auto llama = engine_view(model, EngineVersion::llama_cpp, 131072);
  const auto pairs = differing_pairs(only_setup(llama), hf);
  CHECK(pairs.size() == 13);
  CHECK(largest_ratio(only_setup(llama), hf) == Approx(7.97).epsilon(1e-3));
  REQUIRE(llama.gguf->lost.size() == 1);
  CHECK(llama.gguf->lost.front().pointer == "/rope_scaling/original_max_position_embeddings");
}

TEST_CASE("a factor of 1e30 or 1e308: vLLM's and SGLang's lengths saturate at the largest int64") {
  // Python's int() of the product has no bound; a length past 2^63 tokens is one no target reaches either way.
  constexpr auto kLargest = std::numeric_limits<std::int64_t>::max();
  for (const std::string type : {"linear", "dynamic"}) {
    for (const std::string factor : {"1e30", "1e308"}) {
      INFO(type << " " << factor);
      const Model model = normalize_json(json::parse(R"({"model_type": "llama", "hidden_size": 4096,
          "num_attention_heads": 32, "num_hidden_layers": 2, "max_position_embeddings": 4096,
          "rope_theta": 10000.0, "rope_scaling": {"rope_type": ")" +
                                                     type + R"(", "factor": )" + factor + "}}"),
                                         "huge-factor");
      CHECK(engine_view(model, EngineVersion::vllm_legacy, 8192).length.limit_tokens == kLargest);
      CHECK(engine_view(model, EngineVersion::sglang, 8192).length.limit_tokens == kLargest);
    }
  }
}

TEST_CASE("dynamic NTK factor 2 at 8192 tokens: per sequence, static or dropped") {
  const Model model = load("testdata/configs/synthetic/dynamic.json");
  const auto hf = only_setup(engine_view(model, EngineVersion::transformers_v5, 8192));
  CHECK(hf.recomputed_per_sequence);
  CHECK(*hf.effective_theta == Approx(30528).epsilon(1e-4));
  CHECK(*only_setup(engine_view(model, EngineVersion::transformers_v5, 4096)).effective_theta == 10000.0);
  // Old vLLM: the same scaled base for every length, short prompts included.
  for (std::int64_t target : {2048, 8192}) {
    const auto old = only_setup(engine_view(model, EngineVersion::vllm_legacy, target));
    CHECK_FALSE(old.recomputed_per_sequence);
    CHECK(*old.effective_theta == Approx(30528).epsilon(1e-4));
  }
  CHECK(*only_setup(engine_view(model, EngineVersion::vllm_current, 8192)).effective_theta == 10000.0);
  CHECK(*only_setup(engine_view(model, EngineVersion::vllm_dynamic_41277, 8192)).effective_theta == 10000.0);
  CHECK(*only_setup(engine_view(model, EngineVersion::llama_cpp, 8192)).effective_theta == 10000.0);
  CHECK(engine_view(model, EngineVersion::vllm_legacy, 8192).length.limit_tokens == 8192);
  const auto llama = engine_view(model, EngineVersion::llama_cpp, 8192);
  REQUIRE(llama.gguf->lost.size() == 1);
  // The views of vLLM after #41277 and ≥ #56446 agree for dynamic NTK and are merged.
  const auto views = engine_views(model, {Engine::vllm}, 8192);
  REQUIRE(views.size() == 2);
  CHECK(views[0].same_as == std::vector<std::string>{"vLLM 0.22–0.29"});
}

TEST_CASE("gpt-oss truncate=false: llama.cpp floors and ceils the range") {
  const Model model = load("testdata/configs/gpt-oss/gpt-oss-20b.json");
  const auto hf = global(model, EngineVersion::transformers_v5, 131072);
  CHECK(*hf.correction_low == Approx(8.093).margin(5e-4));
  CHECK(*hf.correction_high == Approx(17.398).margin(5e-4));
  CHECK(*global(model, EngineVersion::vllm_current, 131072).correction_low == Approx(8.093).margin(5e-4));
  const auto llama = global(model, EngineVersion::llama_cpp, 131072);
  CHECK(*llama.correction_low == 8.0);
  CHECK(*llama.correction_high == 18.0);
  CHECK(differing_pairs(llama, hf).size() == 9);
  CHECK(largest_ratio(llama, hf) == Approx(1.76).epsilon(2e-3));
  const auto view = engine_view(model, EngineVersion::llama_cpp, 131072);
  REQUIRE(view.gguf->lost.size() == 1);
  CHECK(view.gguf->lost.front().pointer == "/rope_scaling/truncate");
}

TEST_CASE("MRoPE + YaRN: vLLM computes the range on 4 x original") {
  auto config = [](double theta, double factor, int original) {
    json j = {{"model_type", "qwen2_5_vl"},
              {"hidden_size", 3584},
              {"num_attention_heads", 28},
              {"num_hidden_layers", 2},
              {"max_position_embeddings", 128000},
              {"rope_theta", theta},
              {"rope_scaling",
               {{"type", "yarn"},
                {"factor", factor},
                {"original_max_position_embeddings", original},
                {"mrope_section", {16, 24, 24}}}}};
    return normalize_json(j, "mrope-yarn");
  };
  struct Case {
    double theta, factor;
    int original;
    double hf_low, hf_high, vllm_low, vllm_high;
    std::size_t differing;
    double ratio;
  };
  for (const Case& c :
       {Case{5e6, 3.0, 256000, 29, 45, 35, 50, 20, 1.67}, Case{1e6, 4.0, 32768, 23, 40, 30, 47, 0, 2.24}}) {
    INFO(c.theta);
    const Model model = config(c.theta, c.factor, c.original);
    const auto hf = only_setup(engine_view(model, EngineVersion::transformers_v5, 131072));
    const auto vllm = only_setup(engine_view(model, EngineVersion::vllm_current, 131072));
    const auto sglang = only_setup(engine_view(model, EngineVersion::sglang, 131072));
    CHECK(*hf.correction_low == c.hf_low);
    CHECK(*hf.correction_high == c.hf_high);
    CHECK(*vllm.correction_low == c.vllm_low);
    CHECK(*vllm.correction_high == c.vllm_high);
    CHECK(*sglang.correction_low == c.hf_low);  // SGLang's MRoPE class ramps on the original length
    if (c.differing > 0) CHECK(differing_pairs(vllm, hf).size() == c.differing);
    CHECK(largest_ratio(vllm, hf) == Approx(c.ratio).epsilon(3e-3));
  }
}

TEST_CASE("Phi-3-mini-128k LongRoPE: attention factor 1.19024 everywhere, switching differs") {
  const Model model = load("testdata/configs/phi/phi-3-mini-128k-instruct.json");
  const auto hf = only_setup(engine_view(model, EngineVersion::transformers_v5, 131072));
  const auto vllm = only_setup(engine_view(model, EngineVersion::vllm_current, 131072));
  const auto llama = only_setup(engine_view(model, EngineVersion::llama_cpp, 131072));
  for (const auto* view : {&hf, &vllm, &llama}) CHECK(view->rope_magnitude == Approx(1.19024).epsilon(1e-5));
  CHECK(hf.factor_switch == FactorSwitch::per_sequence);
  CHECK(vllm.factor_switch == FactorSwitch::per_deployment);
  CHECK(llama.factor_switch == FactorSwitch::per_context);
  CHECK((hf.long_factors && vllm.long_factors && llama.long_factors));
  CHECK_FALSE(only_setup(engine_view(model, EngineVersion::llama_cpp, 4096)).long_factors);
  // vLLM serves the original 4096 tokens unless --max-model-len says otherwise.
  const auto length = engine_view(model, EngineVersion::vllm_current, 131072).length;
  CHECK(length.limit_tokens == 131072);
  CHECK(length.default_tokens == 4096);
}

TEST_CASE("method overrides: --set dynamic over llama3 replaces the trained method") {
  const std::string path = source_path("testdata/configs/synthetic/llama3.json");
  const Model trained = load_model(path).model;
  Model edited = load_model(path, {{"/rope_scaling", json{{"rope_type", "dynamic"}, {"factor", 8.0}}}}).model;
  const auto overrides = find_method_overrides(trained, edited);
  REQUIRE(overrides.size() == 1);
  CHECK(overrides.front().trained == RopeType::llama3);
  CHECK(overrides.front().applied == RopeType::dynamic);
  CHECK(overrides.front().pointer == "/rope_scaling");
  // Raising the factor of the trained method is not a replacement.
  const Model raised = load_model(path, {{"/rope_scaling/factor", json(16.0)}}).model;
  CHECK(find_method_overrides(trained, raised).empty());
}

TEST_CASE("engine report renderers") {
  const Model model = load("testdata/configs/gpt-oss/gpt-oss-20b.json");
  const auto report = build_engine_report(model, all_engines(), 131072);
  std::ostringstream text;
  render_engines_text(model, report, text);
  CHECK(text.str().find("llama.cpp (GGUF)") != std::string::npos);
  CHECK(text.str().find("* ") != std::string::npos);
  CHECK(text.str().find("cannot represent /rope_scaling/truncate") != std::string::npos);
  std::ostringstream out;
  render_engines_json(model, report, out);
  const json doc = json::parse(out.str());
  CHECK(doc["schema_version"] == 1);
  double llama_cpp_worst = 0.0;
  for (const auto& d : doc["comparison"]["frequency_differences"])
    if (d["a"] == "transformers v5" && d["b"] == "llama.cpp (GGUF)")
      llama_cpp_worst = std::max(llama_cpp_worst, d["ratio"].get<double>());
  CHECK(llama_cpp_worst == Approx(1.76).epsilon(2e-3));
  CHECK(doc["views"].size() == report.views.size());
}

TEST_CASE("DeepSeek-V3 in transformers 4.4x: mscale pair ignored, magnitude 0.1·ln 40 + 1, no softmax scale") {
  const Model model = load("testdata/configs/deepseek/deepseek-v3.json");
  const auto view = only_setup(engine_view(model, EngineVersion::transformers_4_4x, 163840));
  CHECK(view.rope_magnitude == Approx(1.3688879454).epsilon(1e-9));
  CHECK(view.softmax_multiplier == 1.0);
  CHECK(only_setup(engine_view(model, EngineVersion::transformers_v5, 163840)).rope_magnitude == Approx(1.0));
}

TEST_CASE("rope_type deepseek_yarn: YaRN frequencies, the mscale pair, no unknown-type issue") {
  auto config = [](std::string_view type) {
    return json::parse(fmt::format(R"({{"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 64,
        "num_hidden_layers": 2, "max_position_embeddings": 163840, "rope_theta": 10000,
        "rope_scaling": {{"rope_type": "{}", "factor": 40, "original_max_position_embeddings": 4096,
                         "mscale": 0.707, "mscale_all_dim": 0.707, "beta_fast": 32, "beta_slow": 1}}}})",
                                   type));
  };
  const Model deepseek = normalize_json(config("deepseek_yarn"), "deepseek-yarn");
  const Model yarn = normalize_json(config("yarn"), "yarn");
  REQUIRE(deepseek.setups.size() == 1);
  CHECK(deepseek.setups[0].type == RopeType::yarn);
  CHECK(deepseek.setups[0].rope_type_name.value == "deepseek_yarn");
  CHECK(deepseek.issues.empty());
  for (auto version : kAllVersions) {
    if (version == EngineVersion::llama_cpp) continue;
    INFO(label_of(version));
    const auto a = only_setup(engine_view(deepseek, version, 163840));
    const auto b = only_setup(engine_view(yarn, version, 163840));
    CHECK(a.method == RopeType::yarn);
    CHECK(largest_ratio(a, b) == Approx(1.0).epsilon(1e-12));
    CHECK(*a.correction_low == *b.correction_low);
  }
  // vLLM and SGLang run DeepseekScalingRotaryEmbedding: gm(40, 0.707)/gm(40, 0.707) = 1.
  CHECK(only_setup(engine_view(deepseek, EngineVersion::vllm_legacy, 163840)).rope_magnitude == Approx(1.0));
  CHECK(only_setup(engine_view(deepseek, EngineVersion::sglang, 163840)).rope_magnitude == Approx(1.0));
  // Plain yarn in vLLM before #56446 does not forward the pair: gm(40) = 1.3689.
  CHECK(only_setup(engine_view(yarn, EngineVersion::vllm_legacy, 163840)).rope_magnitude ==
        Approx(1.3688879454).epsilon(1e-9));
  // vLLM's length code multiplies deepseek_yarn by the factor (it is not in the yarn branch).
  CHECK(engine_view(deepseek, EngineVersion::vllm_legacy, 163840).length.limit_tokens == 163840 * 40);
}

TEST_CASE("Qwen-VL-Chat: vLLM takes the smallest length key, SGLang the first of its list: 2048") {
  const Model model = load("testdata/configs/qwen/qwen-vl-chat-int4.json");
  REQUIRE(model.length_keys.size() == 2);
  CHECK(model.length_keys[0].key == "max_position_embeddings");
  CHECK(model.length_keys[0].tokens.value == 8192);
  CHECK(model.length_keys[1].key == "seq_length");
  CHECK(model.length_keys[1].tokens.value == 2048);
  CHECK(model.length_keys[1].tokens.from.pointer == "/seq_length");
  CHECK(model.max_position_embeddings.value == 8192);  // transformers' figure
  for (auto version : {EngineVersion::vllm_current, EngineVersion::vllm_legacy, EngineVersion::sglang}) {
    INFO(label_of(version));
    const auto view = engine_view(model, version, 8192);
    CHECK(view.length.limit_tokens == 2048);
    CHECK(view.length.length_key == "seq_length");
    CHECK(view.length.message.find("(8192) is greater than the derived") != std::string::npos);
    // At a target within the limit there are no words of the engine to quote.
    CHECK(engine_view(model, version, 2048).length.message.empty());
  }
  CHECK(engine_view(model, EngineVersion::llama_cpp, 8192).length.length_key == "max_position_embeddings");
  CHECK(engine_view(model, EngineVersion::llama_cpp, 8192).length.message.empty());
  CHECK(engine_view(model, EngineVersion::llama_cpp, 8193).length.message ==
        "n_ctx_seq (8193) > n_ctx_train (8192) -- possible training context overflow");
  // model_max_length replaces vLLM's minimum even when larger (Command-R); SGLang reads it before
  // max_position_embeddings.
  const Model cohere = normalize_json(json::parse(R"({"model_type": "llama", "hidden_size": 4096,
      "num_attention_heads": 32, "num_hidden_layers": 2, "max_position_embeddings": 8192,
      "model_max_length": 131072})"),
                                      "cohere-like");
  CHECK(engine_view(cohere, EngineVersion::vllm_legacy, 8192).length.limit_tokens == 131072);
  CHECK(engine_view(cohere, EngineVersion::sglang, 8192).length.limit_tokens == 131072);
}

TEST_CASE("check's engine report reuses the rules' views: it equals the report built for the selected engines") {
  const std::vector<std::vector<Engine>> selections = {
      {Engine::transformers}, {Engine::vllm}, {Engine::sglang}, {Engine::llama_cpp}, {Engine::vllm, Engine::llama_cpp},
      all_engines()};
  int compared = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(source_path("testdata/configs"))) {
    if (entry.path().extension() != ".json") continue;
    const Model model = load(std::filesystem::relative(entry.path(), source_path("")).string());
    for (std::int64_t target : {std::max<std::int64_t>(model.max_position_embeddings.value, 1), std::int64_t{131072}}) {
      const auto every_engine = engine_views(model, all_engines(), target);
      for (const auto& engines : selections) {
        INFO(entry.path().string() << " at " << target);
        const EngineReport built = build_engine_report(model, engines, target);
        const EngineReport reused = select_engine_report(every_engine, engines, target);
        REQUIRE(reused.views.size() == built.views.size());
        for (std::size_t v = 0; v < built.views.size(); ++v) {
          CHECK(reused.views[v].label == built.views[v].label);
          CHECK(reused.views[v].same_as == built.views[v].same_as);
          CHECK(reused.views[v].length.limit_tokens == built.views[v].length.limit_tokens);
          CHECK(reused.views[v].notes == built.views[v].notes);
          REQUIRE(reused.views[v].setups.size() == built.views[v].setups.size());
          for (std::size_t s = 0; s < built.views[v].setups.size(); ++s)
            CHECK(reused.views[v].setups[s].inv_freq == built.views[v].setups[s].inv_freq);
        }
        CHECK(reused.comparison.lengths_differ == built.comparison.lengths_differ);
        CHECK(reused.comparison.frequencies.size() == built.comparison.frequencies.size());
        ++compared;
      }
    }
  }
  CHECK(compared >= 49 * 2 * 6);
}
