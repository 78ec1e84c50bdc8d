// The catalog's headline findings carry the right numbers on real configs. (Each rule case folder is its own
// CTest test, run by ropelens_rule_case.)
#include <catch2/catch.hpp>

#include <numeric>
#include <string>
#include <vector>

#include "model_support.hpp"

using namespace ropelens;
using ropelens::test::contains;
using ropelens::test::findings;

namespace {

std::vector<int> range(int first, int last) {
  std::vector<int> out(static_cast<std::size_t>(last - first + 1));
  std::iota(out.begin(), out.end(), first);
  return out;
}

}  // namespace

TEST_CASE("CTX201: Llama-2-7B at 8192 tokens leaves pairs 46-63 out of range", "[rules]") {
  auto found = findings("testdata/configs/llava/llava-v1.5-7b.json", "CTX201", 8192);
  REQUIRE(found.size() == 1);
  const Diagnostic& d = found[0];
  CHECK(d.severity == Severity::error);
  CHECK(d.facts["out_of_range_pairs"].get<std::vector<int>>() == range(46, 63));
  CHECK(d.facts["slowest_pair"] == 63);
  CHECK(d.facts["slowest_seen_deg"].get<double>() == Approx(27.1).margin(0.05));
  CHECK(d.facts["slowest_needed_deg"].get<double>() == Approx(54.2).margin(0.05));
  CHECK(contains(d.message, "pairs 46–63 (18 of 64)"));
  CHECK(contains(d.message, "pair 63 27.1° seen → 54.2° needed"));
}

TEST_CASE("CTX201 and CTX202: Qwen3-8B at 131072 tokens", "[rules]") {
  const std::string qwen3 = "testdata/configs/qwen/qwen3-8b.json";
  auto unseen = findings(qwen3, "CTX201", 131072);
  REQUIRE(unseen.size() == 1);
  CHECK(unseen[0].facts["trained_tokens"] == 40960);
  auto beyond = findings(qwen3, "CTX202", 131072);
  REQUIRE(beyond.size() == 1);
  CHECK(beyond[0].severity == Severity::warning);
  CHECK(contains(beyond[0].message, "target 131072 exceeds max_position_embeddings 40960"));
  CHECK(findings(qwen3, "CTX201", 40960).empty());
  CHECK(findings(qwen3, "CTX202", 40960).empty());
}

TEST_CASE("ROPE107: DeepSeek-V3 moves the YaRN temperature into the softmax scale", "[rules]") {
  auto found = findings("testdata/configs/deepseek/deepseek-v3.json", "ROPE107");
  REQUIRE(found.size() == 1);
  CHECK(found[0].severity == Severity::info);
  CHECK(contains(found[0].message, "×1.874"));
  CHECK(found[0].facts["softmax_scale_multiplier"].get<double>() == Approx(1.8739).margin(1e-4));
  CHECK(found[0].facts["rope_attention_factor"].get<double>() == Approx(1.0));
}

TEST_CASE("CTX203: Gemma 3 keeps 10 of 62 layers global", "[rules]") {
  auto found = findings("testdata/configs/gemma/medgemma-27b-it.json", "CTX203", 131072);
  REQUIRE(found.size() == 1);
  CHECK(contains(found[0].message, "52 of 62 layers use sliding attention within 1024 tokens"));
  CHECK(contains(found[0].message, "10 layers attend globally"));
  CHECK(found[0].facts["global_layers"].get<std::vector<int>>() ==
        std::vector<int>{5, 11, 17, 23, 29, 35, 41, 47, 53, 59});
}

TEST_CASE("CTX203: gpt-oss slides half its layers over 128 tokens", "[rules]") {
  auto found = findings("testdata/configs/gpt-oss/gpt-oss-20b.json", "CTX203", 131072);
  REQUIRE(found.size() == 1);
  CHECK(found[0].facts["window"] == 128);
  CHECK(contains(found[0].message, "12 of 24 layers use sliding attention within 128 tokens"));
  CHECK(contains(found[0].message, "12 layers attend globally"));
}

TEST_CASE("CTX204: Phi-3 longrope switches inside targets beyond 4096 tokens", "[rules]") {
  const std::string phi3 = "testdata/configs/phi/phi-3-mini-128k-instruct.json";
  auto found = findings(phi3, "CTX204", 8192);
  REQUIRE(found.size() == 1);
  CHECK(found[0].facts["switch_after_tokens"] == 4096);
  CHECK(findings(phi3, "CTX204", 4096).empty());
}

TEST_CASE("CTX202: GPT-2 has no position row past 1024", "[rules]") {
  auto found = findings("testdata/configs/gpt2/gpt2-xl.json", "CTX202", 2048);
  REQUIRE(found.size() == 1);
  CHECK(found[0].severity == Severity::error);
  CHECK(contains(found[0].message, "position 1025 has no row"));
}
