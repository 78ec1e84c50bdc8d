// ENG rules run directly (the registry line is the lead's), on real and synthetic configs.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "ropelens/engines/engine_report.hpp"
#include "ropelens/engines/method_override.hpp"
#include "ropelens/render/render.hpp"
#include "engines/llama_cpp/llama_cpp_math.hpp"
#include "ropelens/load/model_loader.hpp"
#include "ropelens/normalize/normalize.hpp"
#include "ropelens/rules/rule.hpp"
#include "model_support.hpp"
#include "support.hpp"

namespace ropelens::rules {
extern const Rule ENG301;
extern const Rule ENG302;
extern const Rule ENG303;
extern const Rule ENG304;
extern const Rule ENG305;
}  // namespace ropelens::rules

using namespace ropelens;
using nlohmann::json;
using ropelens::test::load;
using ropelens::test::qwen3_yarn4;
using ropelens::test::source_path;

namespace {

std::vector<Diagnostic> run(const Rule& rule, const Model& model, std::int64_t target_tokens,
                            const Model* unedited = nullptr) {
  const Audit audit = audit_model(model, target_tokens);
  std::vector<RopeTable> tables;
  for (const auto& setup : model.setups) tables.push_back(compute_rope_table(setup));
  Context context{model, tables, audit};
  context.unedited = unedited;
  Sink sink(rule.meta);
  rule.check(context, sink);
  return sink.take();
}

const std::string kSyntheticLlama3 = "testdata/configs/synthetic/llama3.json";

}  // namespace

TEST_CASE("ENG301: vLLM before #56446 serves 131072, the others 40960") {
  const auto found = run(rules::ENG301, qwen3_yarn4(), 131072);
  REQUIRE(found.size() == 1);
  CHECK(found[0].code == "ENG301");
  CHECK(found[0].where.pointer == "/rope_scaling/factor");
  CHECK(found[0].message.find("131072 in vLLM ≤ 0.21 (original_max_position_embeddings 32768 × factor 4)") !=
        std::string::npos);
  CHECK(found[0].message.find("40960 in SGLang") != std::string::npos);  // vLLM main is compared only when pinned
  CHECK(found[0].facts["lengths"]["SGLang"]["limit_tokens"] == 40960);
  CHECK(run(rules::ENG301, load(kSyntheticLlama3), 131072).empty());
  CHECK(run(rules::ENG301, load("testdata/configs/qwen/qwen3-8b.json"), 40960).empty());
}

TEST_CASE("ENG302: gpt-oss differs in llama.cpp, Llama-3.1's llama3 scaling does not fire") {
  const auto found = run(rules::ENG302, load("testdata/configs/gpt-oss/gpt-oss-20b.json"), 131072);
  REQUIRE(found.size() == 1);
  CHECK(found[0].where.pointer == "/rope_scaling");
  CHECK(found[0].message.find("llama.cpp (GGUF)") != std::string::npos);
  CHECK(found[0].facts["worst_ratio"].get<double>() == Approx(1.76).epsilon(2e-3));
  CHECK(run(rules::ENG302, load(kSyntheticLlama3), 131072).empty());
  CHECK(run(rules::ENG302, load("testdata/configs/qwen/qwen3-8b.json"), 40960).empty());
}

TEST_CASE("ENG303: Ministral-3-like magnitude 1.2773 vs 1.0") {
  const Model model = normalize_json(json::parse(R"({"model_type": "ministral3", "hidden_size": 5120,
      "head_dim": 128, "num_attention_heads": 32, "num_hidden_layers": 2, "max_position_embeddings": 262144,
      "rope_parameters": {"rope_type": "yarn", "rope_theta": 1000000.0, "factor": 16.0,
                          "original_max_position_embeddings": 16384, "mscale": 1.0, "mscale_all_dim": 1.0}})"),
                                     "ministral3");
  const auto found = run(rules::ENG303, model, 262144);
  REQUIRE(found.size() == 1);
  CHECK(found[0].where.pointer == "/rope_parameters/mscale");
  // transformers 4.4x has no ministral3 class (added in 5.0, #42498): only vLLM before #56446 runs 1.2773.
  CHECK(found[0].message.find("; 1.2773 in vLLM ≤ 0.21") != std::string::npos);
  CHECK(found[0].message.find("transformers 4.4x") == std::string::npos);
  CHECK(run(rules::ENG303, load(kSyntheticLlama3), 131072).empty());
}

TEST_CASE("ENG304: truncate false and dynamic cannot be carried by GGUF") {
  const auto gpt_oss = run(rules::ENG304, load("testdata/configs/gpt-oss/gpt-oss-20b.json"), 131072);
  REQUIRE(gpt_oss.size() == 1);
  CHECK(gpt_oss[0].where.pointer == "/rope_scaling/truncate");
  const auto dynamic = run(rules::ENG304, load("testdata/configs/synthetic/dynamic.json"), 4096);
  REQUIRE(dynamic.size() == 1);
  CHECK(dynamic[0].message.find("dynamic NTK") != std::string::npos);
  CHECK(run(rules::ENG304, load(kSyntheticLlama3), 131072).empty());
}

TEST_CASE("ENG305: compares the edited config with the trained one") {
  const std::string path = source_path(kSyntheticLlama3);
  const Model trained = load_model(path).model;
  const Model edited = load_model(path, {{"/rope_scaling", json{{"rope_type", "dynamic"}, {"factor", 8.0}}}}).model;
  const auto found = run(rules::ENG305, edited, 131072, &trained);
  REQUIRE(found.size() == 1);
  CHECK(found[0].where.pointer == "/rope_scaling");
  CHECK(found[0].message ==
        "--set replaces the trained rope type 'llama3' (factor 8) with 'dynamic' (factor 8); the "
        "weights were trained with the first");
  CHECK(run(rules::ENG305, trained, 131072, &trained).empty());
  CHECK(run(rules::ENG305, edited, 131072).empty());  // no unedited config: nothing to compare with
}
