// The launch corpus harness (launch/launch_corpus.hpp) on a scratch corpus: a case it gets right, one whose
// expectation is wrong, GGUF facts built into a header and served from a fake Ollama store.
#include <catch2/catch.hpp>

#include <sstream>

#include <nlohmann/json.hpp>

#include "launch/launch_corpus.hpp"
#include "support.hpp"

using Catch::Matchers::Contains;
using nlohmann::json;
using ropelens::test::TempDir;

TEST_CASE("the corpus harness serves each case's models, runs its line and reports every mismatch",
          "[launch][corpus]") {
  TempDir corpus;
  ropelens::test::write_file(corpus.file("models/qwen3.gguf.json"), json{{"general.architecture", "qwen3"},
                                                                         {"metadata",
                                                                          {{"qwen3.context_length", 40960},
                                                                           {"qwen3.embedding_length", 4096},
                                                                           {"qwen3.block_count", 36},
                                                                           {"qwen3.attention.head_count", 32},
                                                                           {"qwen3.attention.head_count_kv", 8},
                                                                           {"qwen3.attention.key_length", 128},
                                                                           {"qwen3.rope.freq_base", 1000000.0}}}}
                                                                        .dump());
  const json right{{"id", "right"},
                   {"engine", "ollama"},
                   {"launch", "ollama run qwen3:8b"},
                   {"models", {{"qwen3:8b", "models/qwen3.gguf.json"}}},
                   {"recipe", true},
                   {"expect", {{"exit", 0}, {"findings", json::array()}, {"served_tokens", 4096}}}};
  const json wrong{{"id", "wrong"},
                   {"engine", "vllm"},
                   {"launch", "vllm serve Qwen/Qwen3-8B --max-model-len 32768"},
                   {"models", {{"Qwen/Qwen3-8B", "testdata/configs/qwen/qwen3-8b.json"}}},
                   {"expect", {{"exit", 1}, {"findings", {"CTX201"}}, {"served_tokens", 32768}}}};
  ropelens::test::write_file(corpus.file("cases.jsonl"), right.dump() + "\n" + wrong.dump() + "\n");

  const auto cases = ropelens::test::read_corpus(corpus.path());
  REQUIRE(cases.size() == 2);
  const auto got = ropelens::test::run_corpus_case(cases[0], corpus.path());
  INFO(ropelens::test::describe(got));
  CHECK(ropelens::test::verdict_matches(cases[0], got));
  CHECK(got.served_tokens == 4096);  // Ollama's default for an unknown memory, from the store's GGUF header

  std::ostringstream table;
  CHECK(ropelens::test::report_corpus(corpus.path(), table) == 1);
  CHECK_THAT(table.str(), Contains("wrong") && Contains("MISMATCH") && Contains("exit 0 [] @32768"));
  CHECK_THAT(table.str(), Contains("1 of 2 verdicts right (50.0%), 0 known gaps, 1 failing; 1 of 2 cases are correct "
                                   "recipes (50.0%), 1 of them clean"));

  ropelens::test::write_file(corpus.file("cases.jsonl"), "{\"id\": \"no-expect\"}\n");
  CHECK_THROWS_WITH(ropelens::test::read_corpus(corpus.path()), Contains("cases.jsonl:1:"));
}
