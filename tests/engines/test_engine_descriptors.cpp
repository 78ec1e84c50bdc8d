// One descriptor per engine: every list of engines (options, views, KV-cache layouts, snippets) follows it.
#include <algorithm>
#include <set>
#include <string>

#include <catch2/catch.hpp>

#include "model_support.hpp"
#include "ropelens/memory/kv_cache.hpp"
#include "ropelens/engines/engine.hpp"
#include "ropelens/engines/engine_descriptor.hpp"
#include "support.hpp"

using namespace ropelens;
using ropelens::test::load;

TEST_CASE("every engine has exactly one descriptor, in the order of all_engines()") {
  const auto& descriptors = engine_descriptors();
  REQUIRE(descriptors.size() == all_engines().size());
  for (std::size_t i = 0; i < descriptors.size(); ++i) {
    const EngineDescriptor& d = descriptors[i];
    INFO(to_string(d.engine));
    CHECK(d.engine == all_engines()[i]);
    CHECK(&describe(d.engine) == &d);
    CHECK(d.view != nullptr);
    CHECK_FALSE(d.model_registry.empty());
    REQUIRE_FALSE(d.versions.empty());
    CHECK(is_current(d.versions.front()));
    for (EngineVersion version : d.versions) CHECK(engine_of(version) == d.engine);
  }
}

TEST_CASE("engine versions belong to one engine each, and their labels are distinct") {
  std::set<std::string> labels;
  std::size_t versions = 0;
  for (const auto& d : engine_descriptors())
    for (EngineVersion version : d.versions) {
      ++versions;
      labels.insert(std::string(label_of(version)));
    }
  CHECK(labels.size() == versions);
}

TEST_CASE("engine names, display names and aliases parse back to their engine") {
  CHECK(engine_choices() == std::vector<std::string_view>{"transformers", "vllm", "sglang", "llama.cpp", "all"});
  CHECK(display_name(Engine::vllm) == "vLLM");
  CHECK(display_name(Engine::sglang) == "SGLang");
  for (const auto& id : engine_identities()) {
    CHECK(parse_engine(id.name) == id.engine);
    for (auto alias : id.aliases) CHECK(parse_engine(alias) == id.engine);
  }
  CHECK_FALSE(parse_engine("vllm2"));
  CHECK(parse_engine_selection("all") == all_engines());
  CHECK_THROWS_WITH(parse_engine_selection("tgi"),
                    "--engine 'tgi': expected transformers, vllm, sglang, llama.cpp or all");
}

TEST_CASE("the KV-cache report has one layout per engine, named by its descriptor") {
  const auto report = kv_cache_at(load("testdata/configs/llama/llama-3.2-3b.json"), {131072, std::nullopt});
  REQUIRE(report.engines.size() == all_engines().size());
  for (std::size_t i = 0; i < report.engines.size(); ++i) {
    REQUIRE(report.engines[i].engine);
    CHECK(*report.engines[i].engine == all_engines()[i]);
    CHECK(report.engines[i].name() == to_string(all_engines()[i]));
  }
  CHECK_FALSE(report.cache.engine);
  CHECK(report.cache.name() == "window-aware");
}

TEST_CASE("serve flags come from the descriptors") {
  CHECK(describe(Engine::vllm).serve.context_length == "--max-model-len");
  CHECK(describe(Engine::sglang).serve.context_length == "--context-length");
  CHECK(describe(Engine::llama_cpp).serve.context_length == "-c");
  CHECK(describe(Engine::transformers).serve.launch.empty());
}
