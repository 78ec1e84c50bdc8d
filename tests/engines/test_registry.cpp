// One registry row per engine: every list of engines (options, views, KV-cache layouts, fit rows, snippets) and every
// version table follows it.
#include <algorithm>
#include <set>
#include <string>

#include <catch2/catch.hpp>

#include "model_support.hpp"
#include "ropelens/engines/kv_cache.hpp"
#include "ropelens/engines/registry.hpp"
#include "support.hpp"

using namespace ropelens;
using ropelens::test::load;

TEST_CASE("every engine has exactly one registry row, in the order of all_engines()") {
  const auto registry = engine_registry();
  REQUIRE(registry.size() == all_engines().size());
  for (std::size_t i = 0; i < registry.size(); ++i) {
    const EngineRow& row = *registry[i];
    INFO(row.name);
    CHECK(row.engine == all_engines()[i]);
    CHECK(&engine_row(row.engine) == &row);
    CHECK(row.view != nullptr);
    CHECK(row.kv_layout != nullptr);
    CHECK(row.cache_dtype != nullptr);
    CHECK(row.snippets != nullptr);
    CHECK_FALSE(row.model_registry.empty());
    REQUIRE_FALSE(row.versions.rows.empty());
    CHECK(std::any_of(row.versions.rows.begin(), row.versions.rows.end(),
                      [](const VersionRow& version) { return is_current(version.version); }));
    for (const VersionRow& version : row.versions.rows) CHECK(engine_of(version.version) == row.engine);
  }
}

TEST_CASE("engine versions belong to one engine each, and their labels and keys are distinct") {
  std::set<std::string> labels;
  std::size_t versions = 0;
  for (const EngineRow* row : engine_registry()) {
    std::set<std::string> keys;
    for (const VersionRow& version : row->versions.rows) {
      ++versions;
      labels.insert(std::string(label_of(version.version)));
      keys.insert(std::string(version_key(version.version)));
    }
    CHECK(keys.size() == row->versions.rows.size());
    // @main is the newest behaviour of every engine, whether or not it is the row's key.
    CHECK(resolve_version(row->engine, "main")->version == row->versions.rows.front().version);
  }
  CHECK(labels.size() == versions);
}

TEST_CASE("the vLLM labels name the releases of each key (they were swapped)") {
  CHECK(version_key(EngineVersion::vllm_legacy) == "before-41277");
  CHECK(label_of(EngineVersion::vllm_legacy) == "vLLM ≤ 0.21");
  CHECK(version_key(EngineVersion::vllm_dynamic_41277) == "before-56446");
  CHECK(label_of(EngineVersion::vllm_dynamic_41277) == "vLLM 0.22–0.29");
  CHECK(label_of(EngineVersion::vllm_current) == "vLLM main (unreleased)");
}

TEST_CASE("engine names, display names and aliases parse back to their engine") {
  CHECK(engine_choices() == std::vector<std::string_view>{"transformers", "vllm", "sglang", "llama.cpp", "mlx-lm",
                                                          "trtllm", "exllamav3", "all"});
  CHECK(display_name(Engine::vllm) == "vLLM");
  CHECK(display_name(Engine::sglang) == "SGLang");
  for (const EngineRow* row : engine_registry()) {
    CHECK(parse_engine(row->name) == row->engine);
    for (auto alias : row->aliases) CHECK(parse_engine(alias) == row->engine);
  }
  CHECK(parse_engine("gguf") == Engine::llama_cpp);
  CHECK_FALSE(parse_engine("vllm2"));
  CHECK(parse_engine_selection("all") == all_engines());
  CHECK_THROWS_WITH(parse_engine_selection("tgi"),
                    "--engine 'tgi': expected transformers, vllm, sglang, llama.cpp, mlx-lm, trtllm, exllamav3 or all");
}

TEST_CASE("the KV-cache report has one layout per engine, named by its registry row") {
  const auto report = kv_cache_at(load("testdata/configs/llama/llama-3.2-3b.json"), {131072, std::nullopt});
  REQUIRE(report.engines.size() == all_engines().size());
  for (std::size_t i = 0; i < report.engines.size(); ++i)
    CHECK(report.engines[i].name() == to_string(all_engines()[i]));
  CHECK(report.cache.engine.empty());
  CHECK(report.cache.name() == "window-aware");
}

TEST_CASE("serve flags, granularity and cache dtypes come from the registry rows") {
  CHECK(engine_row(Engine::vllm).serve.context_length == "--max-model-len");
  CHECK(engine_row(Engine::sglang).serve.context_length == "--context-length");
  CHECK(engine_row(Engine::llama_cpp).serve.context_length == "-c");
  CHECK(engine_row(Engine::transformers).serve.launch.empty());
  for (const EngineRow* row : engine_registry()) {
    INFO(row->name);
    // fit's table words the granularity with its number (one token needs none: "token by token")
    CHECK((row->kv_granularity.tokens == 1 ||
           row->kv_granularity.text.find(std::to_string(row->kv_granularity.tokens)) != std::string_view::npos));
  }
  CHECK(engine_row(Engine::vllm).cache_dtype(KvDtype::fp8, KvDtype::bf16).value == "fp8");
  CHECK(engine_row(Engine::sglang).cache_dtype(KvDtype::fp8, KvDtype::bf16).value == "fp8_e4m3");
  CHECK(engine_row(Engine::llama_cpp).cache_dtype(KvDtype::fp8, KvDtype::bf16).unsupported);
  CHECK(engine_row(Engine::transformers).cache_dtype(KvDtype::q8_0, KvDtype::bf16).unsupported);
}

TEST_CASE("the reference version and the GGUF engine are registry answers") {
  CHECK(reference_version() == EngineVersion::transformers_v5);
  CHECK(gguf_engine().engine == Engine::llama_cpp);
  const auto registry = engine_registry();
  const auto with_gguf =
      std::count_if(registry.begin(), registry.end(), [](const EngineRow* row) { return row->gguf != nullptr; });
  CHECK(with_gguf == 1);
}
