// The known base models: each family's entries against the published configs under testdata/, the audit bounding
// a raised declared length by them (check, fit and suggest alike), and docs/known-bases.md kept equal to the table.
#include <algorithm>
#include <array>
#include <cstdlib>
#include <map>
#include <set>

#include <catch2/catch.hpp>

#include "model_support.hpp"
#include "ropelens/audit/audit.hpp"
#include "ropelens/audit/known_bases.hpp"
#include "ropelens/audit/reach.hpp"
#include "ropelens/report/fit_report.hpp"
#include "support.hpp"

using namespace ropelens;
using ropelens::test::load;

namespace {

// A published config of each family and the base it must match (released as is: not raised).
const std::map<std::string, std::vector<std::pair<std::string, std::string>>>& published() {
  static const std::map<std::string, std::vector<std::pair<std::string, std::string>>> configs = {
      {"Llama 2",
       {{"testdata/hub/llama/llama-2-7b-hf.json", "Llama-2-7B"},
        {"testdata/hub/llama/llama-2-13b-hf.json", "Llama-2-13B"},
        {"testdata/hub/llama/llama-2-70b-hf.json", "Llama-2-70B"}}},
      {"Llama 3.1",
       {{"testdata/hub/llama/llama-3.1-8b.json", "Llama-3.1-8B"},
        {"testdata/configs/llama/llama-3.1-8b-instruct-bnb8bit-finetune.json", "Llama-3.1-8B"},
        {"testdata/hub/llama/llama-3.1-405b.json", "Llama-3.1-405B"}}},
      {"Llama 3.2",
       {{"testdata/configs/llama/llama-3.2-3b.json", "Llama-3.2-3B"},
        {"testdata/hub/llama/llama-3.2-1b-instruct.json", "Llama-3.2-1B"}}},
      {"Qwen2", {{"testdata/hub/qwen/qwen2-7b-instruct.json", "Qwen2-7B"}}},
      {"Qwen2.5",
       {{"testdata/hub/qwen/qwen2.5-3b-instruct.json", "Qwen2.5-3B"},
        {"testdata/hub/qwen/qwen2.5-72b-instruct.json", "Qwen2.5-72B"}}},
      {"Qwen3",
       {{"testdata/configs/qwen/qwen3-8b.json", "Qwen3-8B"},
        {"testdata/hub/qwen/qwen3-0.6b.json", "Qwen3-0.6B"},
        {"testdata/hub/qwen/qwen3-32b.json", "Qwen3-32B"},
        {"testdata/hub/qwen/qwen3-30b-a3b.json", "Qwen3-30B-A3B"}}},
      {"Mistral",
       {{"testdata/configs/mistral/mistral-7b-instruct-v0.2.json", "Mistral-7B-v0.2"},
        {"testdata/configs/mistral/mistral-7b-instruct-v0.3.json", "Mistral-7B-v0.3"}}},
      {"Mixtral",
       {{"testdata/configs/mistral/mixtral-8x7b-v0.1.json", "Mixtral-8x7B"},
        {"testdata/hub/mistral/mixtral-8x22b-v0.1.json", "Mixtral-8x22B"}}},
      {"Gemma 2", {{"testdata/hub/gemma/gemma-2-9b-it.json", "Gemma-2-9B"}}},
      // MedGemma 27B is a Gemma 3 27B fine-tune: its text_config keeps the base's shape and global linear ×8.
      {"Gemma 3", {{"testdata/configs/gemma/medgemma-27b-it.json", "Gemma-3-27B"}}},
      {"Phi-3",
       {{"testdata/configs/phi/phi-3-mini-128k-instruct.json", "Phi-3-mini-128k"},
        {"testdata/configs/phi/phi-3.5-mini-instruct.json", "Phi-3.5-mini"}}},
      {"Phi-4", {{"testdata/hub/phi/phi-4.json", "Phi-4"}}},
      {"DeepSeek",
       {{"testdata/configs/deepseek/deepseek-v3.json", "DeepSeek-V3"},
        {"testdata/hub/deepseek/deepseek-v2-lite.json", "DeepSeek-V2-Lite"}}},
      {"GLM", {{"testdata/hub/glm/glm-4.5.json", "GLM-4.5"}}},
      {"OLMo", {{"testdata/hub/olmo/olmo-3.1-32b-instruct.json", "OLMo-3.1-32B"}}},
      {"SmolLM", {{"testdata/configs/smollm/smollm3-3b.json", "SmolLM3-3B"}}},
      {"Granite", {{"testdata/configs/granite/granite-3.1-1b-a400m-instruct.json", "Granite-3.1-1B-A400M"}}},
  };
  return configs;
}

// Families whose entries no config under testdata/ shows yet (their cards are the only evidence).
const std::set<std::string> kWithoutConfig = {"Llama 3", "Llama 3.3"};

bool names(const BaseMatch& match, const std::string& name) {
  return std::any_of(match.candidates.begin(), match.candidates.end(),
                     [&](const KnownBase* b) { return b->name == name; });
}

}  // namespace

TEST_CASE("known bases: every family matches its published configs, which stay unbounded", "[known-bases]") {
  std::set<std::string> families;
  for (const KnownBase& base : known_bases()) families.insert(std::string(base.family));
  for (const std::string& family : families) {
    INFO(family);
    if (kWithoutConfig.count(family)) {
      CHECK(published().count(family) == 0);
      continue;
    }
    REQUIRE(published().count(family) == 1);
    for (const auto& [config, base] : published().at(family)) {
      INFO(config);
      const Model model = load(config);
      const BaseMatch match = match_known_base(model);
      CHECK(names(match, base));
      CHECK_FALSE(match.ambiguous());
      // As released, a config declares no more than its base: the audit takes its own keys.
      const Audit audit = audit_model(model, model.max_position_embeddings.value);
      CHECK_FALSE(audit.trained.bound);
      CHECK_FALSE(audit.trained.ambiguous);
    }
  }
  for (const auto& [family, configs] : published()) CHECK(families.count(family) == 1);
}

TEST_CASE("known bases: each entry's declared length is at least its native length, and its card is a URL",
          "[known-bases]") {
  for (const KnownBase& base : known_bases()) {
    INFO(base.name);
    CHECK(base.native > 0);
    CHECK(base.declared >= base.native);
    CHECK(base.card.starts_with("https://huggingface.co/"));
  }
}

TEST_CASE("known bases: Qwen3-8B raised to 131072 is audited at 40960, and fit agrees with check",
          "[known-bases][trained]") {
  const Model raised = load("testdata/rules/CTX211/bad-qwen3-8b-raised-to-131072/config.json");
  const Audit audit = audit_model(raised, 131072);
  REQUIRE(audit.trained.bound);
  CHECK(audit.trained.bound->tokens == 40960);
  CHECK(audit.trained.bound->base == "Qwen3-8B");
  CHECK(audit.setups[0].pretrain_tokens == 40960);
  CHECK(audit.setups[0].out_of_range_pairs.size() == 23);  // pairs 41–63, as the released config at 131072
  CHECK(longest_trained_length(raised) == 40960);
  // In range up to 41000: a pair is out of range only past 0.1% beyond the angle it saw (40960 × 1.001 = 41001).
  CHECK(longest_in_range(raised, 131072) == 41000);

  FitRequest request;
  request.memory_bytes = 80ULL << 30;
  request.weights_bytes = 16ULL << 30;  // about Qwen3-8B's bf16 weights: the cap under test is the RoPE's
  // fit searches up to the trained length, as it searches up to the declared length of the released config.
  const FitReport fit = fit_model(raised, request);
  REQUIRE(fit.rope_tokens);
  CHECK(*fit.rope_tokens == 40960);
  CHECK(*fit_model(load("testdata/configs/qwen/qwen3-8b.json"), request).rope_tokens == 40960);
  for (const auto& f : fit.fits) CHECK(f.max_tokens <= 40960);

  // Stated by the user, the length is the user's: check and fit both take it.
  TrainingOverrides stated;
  stated.trained_length = 131072;
  CHECK(audit_model(raised, 131072, {nullptr, stated}).setups[0].out_of_range_pairs.empty());
  request.training = stated;
  CHECK(*fit_model(raised, request).rope_tokens == 131072);
}

TEST_CASE("known bases: Gemma 3 27B raised to 524288 with linear x8 unchanged is audited as the released config",
          "[known-bases][trained]") {
  // MedGemma 27B (a Gemma 3 27B fine-tune) declares 131072 with linear ×8: 16384 tokens before scaling. Raised to
  // 524288, the length before scaling stays 131072 / 8, not 524288 / 8 (which would cover every angle at 524288).
  const std::string medgemma = "testdata/configs/gemma/medgemma-27b-it.json";
  const Model raised = load(medgemma, {parse_edit("/text_config/max_position_embeddings=524288")});
  const Audit audit = audit_model(raised, 524288);
  REQUIRE(audit.trained.bound);
  CHECK(audit.trained.bound->base == "Gemma-3-27B");
  const Audit released = audit_model(load(medgemma), 524288);
  REQUIRE(audit.setups.size() == released.setups.size());
  for (std::size_t i = 0; i < audit.setups.size(); ++i) {
    INFO(raised.setups[i].name);
    CHECK(audit.setups[i].pretrain_tokens == released.setups[i].pretrain_tokens);
    CHECK(audit.setups[i].extension_tokens == released.setups[i].extension_tokens);
    CHECK(audit.setups[i].out_of_range_pairs == released.setups[i].out_of_range_pairs);
  }
  const auto full = std::find_if(raised.setups.begin(), raised.setups.end(),
                                 [](const RopeSetup& s) { return s.name == "full_attention"; });
  REQUIRE(full != raised.setups.end());
  const SetupAudit& global = audit.setups[static_cast<std::size_t>(full - raised.setups.begin())];
  CHECK(global.pretrain_tokens == 16384);
  CHECK(global.extension_tokens == 131072);
  CHECK(global.out_of_range_pairs.size() == 27);  // pairs 37–63
  CHECK(ropelens::test::contains(global.pretrain_from.note, "131072 from the known base Gemma-3-27B"));
  CHECK(longest_trained_length(raised) == 131072);
}

TEST_CASE("known bases: a top-level original_max_position_embeddings without scaling is the trained length",
          "[known-bases][trained]") {
  const Model model =
      load("testdata/configs/qwen/qwen3-8b.json", {parse_edit("/original_max_position_embeddings=32768")});
  const Audit audit = audit_model(model, 40960);
  CHECK(audit.setups[0].pretrain_tokens == 32768);
  CHECK_FALSE(audit.setups[0].out_of_range_pairs.empty());
}

TEST_CASE("known bases: docs/known-bases.md holds the table", "[known-bases][docs]") {
  // The table sits between two markers; UPDATE_SNAPSHOTS=1 rewrites it from known_bases_markdown().
  const std::string path = ropelens::test::source_path("docs/known-bases.md");
  const std::string doc = ropelens::test::read_file(path);
  const std::string begin = "<!-- generated from src/audit/known_bases.cpp -->\n", end = "<!-- end of table -->";
  const auto from = doc.find(begin), to = doc.find(end);
  REQUIRE(from != std::string::npos);
  REQUIRE(to != std::string::npos);
  const std::string table = known_bases_markdown();
  const std::string shown = doc.substr(from + begin.size(), to - from - begin.size());
  if (shown != table && std::getenv("UPDATE_SNAPSHOTS") != nullptr)
    ropelens::test::write_file(path, doc.substr(0, from + begin.size()) + table + doc.substr(to));
  else CHECK(shown == table);
}

TEST_CASE("known bases: bases of one shape with different lengths are ambiguous unless the config names one",
          "[known-bases]") {
  // Two bases with Qwen3-8B's shape that differ only in their declared lengths.
  const std::array<KnownBase, 2> bases{
      KnownBase{"Qwen3-8B", "Qwen3", "qwen3", "qwen3", 4096, 36, 32, 151936, 1000000.0, RopeType::default_rope, 0,
                40960, 32768, "https://huggingface.co/Qwen/Qwen3-8B"},
      KnownBase{"Qwen3-8B-Long", "Qwen3", "qwen3", "qwen3", 4096, 36, 32, 151936, 1000000.0, RopeType::default_rope, 0,
                131072, 131072, "https://example.org/card"},
  };
  Model model = load("testdata/configs/qwen/qwen3-8b.json");
  model.name_or_path.reset();
  const BaseMatch match = match_known_base(model, bases);
  REQUIRE(match.candidates.size() == 2);
  CHECK(match.ambiguous());
  CHECK(match.names() == "Qwen3-8B or Qwen3-8B-Long");

  // _name_or_path naming one candidate narrows the match to it.
  model.name_or_path = Field<std::string>{"someone/Qwen3-8B-Long-finetune", Provenance::at("/_name_or_path")};
  const BaseMatch named = match_known_base(model, bases);
  REQUIRE(named.candidates.size() == 1);
  CHECK(named.candidates.front()->name == "Qwen3-8B-Long");
  CHECK_FALSE(named.ambiguous());
  model.name_or_path = Field<std::string>{"someone/qwen3-8b-sft", Provenance::at("/_name_or_path")};
  const BaseMatch shorter = match_known_base(model, bases);
  REQUIRE(shorter.candidates.size() == 1);
  CHECK(shorter.candidates.front()->name == "Qwen3-8B");
}
