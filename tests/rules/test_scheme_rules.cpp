// CTX207-CTX209, the rules for positional schemes beyond plain RoPE: the seed articles' numbers (ALiBi slopes
// 1/2 .. 1/256, T5's 32 buckets up to 128, Llama 4's temperatures 1.069 and 1.486) as they reach the findings'
// facts and messages, on real and synthetic configs, and where each rule starts and stops firing.
// Expected values were derived by hand or with Python's math module, not with ropelens.
#include <catch2/catch.hpp>

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "ropelens/check/check.hpp"
#include "ropelens/load/model_loader.hpp"
#include "ropelens/rules/rule.hpp"
#include "model_support.hpp"
#include "support.hpp"

using namespace ropelens;
using ropelens::test::contains;
using ropelens::test::findings;

namespace {

// Runs one rule on a hand-built model, without a config file.
std::vector<Diagnostic> run_rule(const std::string& code, const Model& model, std::int64_t target) {
  const Rule* rule = find_rule(code);
  REQUIRE(rule != nullptr);
  std::vector<RopeTable> tables;
  Audit audit;
  audit.target_tokens = target;
  Context context{model, tables, audit};
  Sink sink(rule->meta);
  rule->check(context, sink);
  return sink.take();
}

Approx tight(double expected) { return Approx(expected).epsilon(1e-12); }

Model alibi_model(int heads, std::int64_t declared) {
  Model model;
  model.model_type = {"mpt", Provenance::at("/model_type")};
  model.scheme = PositionScheme::alibi;
  model.scheme_from = Provenance::at("/attn_config/alibi");
  model.max_position_embeddings = {declared, Provenance::at("/max_seq_len")};
  AlibiInfo alibi;
  alibi.num_heads = heads;
  model.alibi = alibi;
  return model;
}

const std::string kReplit = "testdata/configs/mpt/replit-code-v1_5-3b.json";
const std::string kBloom = "testdata/configs/bloom/bloom-176b.json";
const std::string kT5Base = "testdata/configs/t5/t5-base.json";
const std::string kLlama4TuningOff = "testdata/rules/CTX209/bad-llama4-tuning-off-at-8192/config.json";
const std::string kLlama4TuningOn = "testdata/configs/synthetic/llama4-nope-chunked.json";

}  // namespace

// ---------------------------------------------------------------------------------------------
// CTX207 alibi-beyond-trained-length

TEST_CASE("CTX207: 8 ALiBi heads (slopes 1/2 .. 1/256) at twice a 1024-token training length", "[rules][schemes]") {
  auto found = run_rule("CTX207", alibi_model(8, 1024), 2048);
  REQUIRE(found.size() == 1);
  const Diagnostic& d = found[0];
  CHECK(d.severity == Severity::warning);
  CHECK(d.where.pointer == "/max_seq_len");
  CHECK(d.facts["steepest_head"] == 0);
  CHECK(d.facts["steepest_slope"].get<double>() == 0.5);
  CHECK(d.facts["shallowest_head"] == 7);
  CHECK(d.facts["shallowest_slope"].get<double>() == 1.0 / 256);
  CHECK(d.facts["farthest_distance"] == 2047);
  CHECK(d.facts["steepest_bias"].get<double>() == -1023.5);                // -2047 / 2
  CHECK(d.facts["shallowest_bias"].get<double>() == -7.99609375);          // -2047 / 256
  CHECK(d.facts["trained_steepest_bias"].get<double>() == -511.5);         // -1023 / 2
  CHECK(d.facts["trained_shallowest_bias"].get<double>() == -3.99609375);  // -1023 / 256
  CHECK(contains(d.message, "target 2048 exceeds the declared training length 1024 (max_seq_len)"));
  CHECK(contains(d.message, "head 0 (slope 0.5) adds -1023.5"));
  CHECK(contains(d.message, "head 7 (slope 0.00390625) adds -7.996094"));
  CHECK(contains(d.message, "against -511.5 and -3.996094 at the longest trained distance 1023"));
}

TEST_CASE("CTX207: fires only past the declared length", "[rules][schemes]") {
  CHECK(run_rule("CTX207", alibi_model(8, 1024), 1024).empty());
  CHECK(run_rule("CTX207", alibi_model(8, 1024), 1025).size() == 1);
  Model not_alibi = alibi_model(8, 1024);
  not_alibi.scheme = PositionScheme::learned_absolute;
  CHECK(run_rule("CTX207", not_alibi, 4096).empty());
}

TEST_CASE("CTX207: without a head count the finding has no biases", "[rules][schemes]") {
  auto found = run_rule("CTX207", alibi_model(0, 1024), 4096);
  REQUIRE(found.size() == 1);
  CHECK(contains(found[0].message, "distances 1024–4095 were never seen in training"));
  CHECK_FALSE(found[0].facts.contains("steepest_bias"));
}

TEST_CASE("CTX207: MPT replit-code-v1.5 at 16384 tokens, trained at 4096", "[rules][schemes]") {
  auto found = findings(kReplit, "CTX207", 16384);
  REQUIRE(found.size() == 1);
  const Diagnostic& d = found[0];
  CHECK(d.severity == Severity::warning);
  CHECK(d.where.pointer == "/max_seq_len");
  CHECK(d.facts["trained_length"] == 4096);
  CHECK(d.facts["heads"] == 24);
  // 24 heads, bias max 8: slopes 2^(-k/4) for k = 1..32, even k first; k = 1 is head 16, k = 32 head 15.
  CHECK(d.facts["steepest_head"] == 16);
  CHECK(d.facts["steepest_slope"].get<double>() == tight(0.8408964152537145));
  CHECK(d.facts["steepest_bias"].get<double>() == tight(-13776.405971101605));
  CHECK(d.facts["shallowest_head"] == 15);
  CHECK(d.facts["shallowest_bias"].get<double>() == -63.99609375);  // -16383 / 256
  CHECK(d.facts["trained_shallowest_bias"].get<double>() == -15.99609375);
  CHECK(contains(d.message, "at distance 16383 the steepest head 16 (slope 0.8408964) adds -13776.41"));
  CHECK(contains(d.message, "shallowest head 15 (slope 0.00390625) adds -63.99609"));
  CHECK(findings(kReplit, "CTX207", 4096).empty());
  CHECK(findings(kReplit, "CTX207", 4097).size() == 1);
}

TEST_CASE("CTX207: BLOOM states no training length, so the finding is info", "[rules][schemes]") {
  auto found = findings(kBloom, "CTX207", 4096);
  REQUIRE(found.size() == 1);
  const Diagnostic& d = found[0];
  CHECK(d.severity == Severity::info);
  CHECK(d.facts["trained_length"].is_null());
  CHECK(d.where.pointer == "/model_type");
  CHECK(contains(d.message, "the config does not state a training length for this ALiBi model (bloom)"));
  // 112 heads interleave the 128-head set: head 64 has slope 2^(-1/16), head 63 has 2^(-8).
  CHECK(d.facts["steepest_head"] == 64);
  CHECK(d.facts["steepest_slope"].get<double>() == tight(0.9576032806985737));
  CHECK(d.facts["shallowest_head"] == 63);
  CHECK(d.facts["shallowest_bias"].get<double>() == -15.99609375);  // -4095 / 256
  CHECK_FALSE(d.facts.contains("trained_shallowest_bias"));
  // No --target: BLOOM declares no length, so there is no target to judge.
  CHECK(findings(kBloom, "CTX207").empty());
}

// ---------------------------------------------------------------------------------------------
// CTX208 t5-distance-collapse

TEST_CASE("CTX208: t5-base at 512 tokens puts 421 (encoder) and 399 (decoder) distances in the last bucket",
          "[rules][schemes]") {
  auto found = findings(kT5Base, "CTX208", 512);
  REQUIRE(found.size() == 1);
  const Diagnostic& d = found[0];
  CHECK(d.severity == Severity::info);  // T5 is trained with these buckets: a fact, not a warning
  CHECK(d.facts["num_buckets"] == 32);
  CHECK(d.facts["max_distance"] == 128);
  CHECK(d.facts["bidirectional_first_distance"] == 91);
  CHECK(d.facts["bidirectional_distances_in_last_bucket"] == 421);
  CHECK(d.facts["bidirectional_last_buckets"].get<std::vector<int>>() == std::vector<int>{15, 31});
  CHECK(d.facts["causal_first_distance"] == 113);
  CHECK(d.facts["causal_distances_in_last_bucket"] == 399);
  CHECK(d.facts["causal_last_bucket"] == 31);
  CHECK(d.facts["distances_beyond_max_distance"] == 384);
  CHECK(contains(d.message, "421 distances (91–511) share bucket 15 (past) and bucket 31 (future)"));
  CHECK(contains(d.message, "399 distances (113–511) share bucket 31"));
  CHECK(contains(d.message, "relative_attention_max_distance 128 (the transformers default)"));
}

TEST_CASE("CTX208: fires once the target passes relative_attention_max_distance", "[rules][schemes]") {
  CHECK(findings(kT5Base, "CTX208", 128).empty());
  auto found = findings(kT5Base, "CTX208", 129);
  REQUIRE(found.size() == 1);
  CHECK(found[0].facts["bidirectional_distances_in_last_bucket"] == 38);  // 91..128
  CHECK(found[0].facts["causal_distances_in_last_bucket"] == 16);         // 113..128
  CHECK(found[0].facts["distances_beyond_max_distance"] == 1);
  // t5-v1_1-base declares no length: without --target there is nothing to judge.
  CHECK(findings("testdata/configs/t5/t5-v1_1-base.json", "CTX208").empty());
}

TEST_CASE("CTX208: the buckets and max distance come from the model", "[rules][schemes]") {
  Model model;
  model.scheme = PositionScheme::t5_relative;
  T5Buckets t5;
  t5.num_buckets = {64, Provenance::at("/relative_attention_num_buckets")};
  t5.max_distance = {256, Provenance::at("/relative_attention_max_distance")};
  model.t5 = t5;
  CHECK(run_rule("CTX208", model, 256).empty());
  auto found = run_rule("CTX208", model, 1000);
  REQUIRE(found.size() == 1);
  const Diagnostic& d = found[0];
  CHECK(d.where.pointer == "/relative_attention_max_distance");
  CHECK(d.facts["bidirectional_last_buckets"].get<std::vector<int>>() == std::vector<int>{31, 63});
  CHECK(d.facts["causal_last_bucket"] == 63);
  // 32 buckets per direction, 16 exact, log buckets up to 256: the last starts at 16 * 16^(15/16) = 215.3 -> 216.
  CHECK(d.facts["bidirectional_first_distance"] == 216);
  CHECK(d.facts["bidirectional_distances_in_last_bucket"] == 1000 - 216);
}

// ---------------------------------------------------------------------------------------------
// CTX209 nope-without-temperature-tuning

TEST_CASE("CTX209: Llama-4-style NoPE layers without tuning at 8192 tokens miss a temperature of 1.0693",
          "[rules][schemes]") {
  auto found = findings(kLlama4TuningOff, "CTX209", 8192);
  REQUIRE(found.size() == 1);
  const Diagnostic& d = found[0];
  CHECK(d.severity == Severity::warning);
  CHECK(d.where.pointer == "/text_config/attn_temperature_tuning");
  CHECK(d.where.line > 0);
  CHECK(d.facts["nope_layers"].get<std::vector<int>>() == std::vector<int>{3, 7});
  CHECK(d.facts["first_scaled_position"] == 8191);
  CHECK(d.facts["temperature_at_target"].get<double>() == Approx(1.0693).margin(5e-5));
  CHECK(d.facts["temperature_at_target"].get<double>() == tight(1.0693147180559945));  // 0.1 * ln 2 + 1
  CHECK(contains(d.message, "at 8192 tokens 2 of 8 layers (NoPE layers 3, 7) attend globally"));
  CHECK(contains(d.message, "multiply them by 1.069315 at position 8191"));
  CHECK(contains(d.message, "it stays 1 only up to position 8190"));
}

TEST_CASE("CTX209: at 1,048,576 tokens the missing temperature is 1.48598", "[rules][schemes]") {
  auto found = findings(kLlama4TuningOff, "CTX209", 1048576);
  REQUIRE(found.size() == 1);
  CHECK(found[0].facts["temperature_at_target"].get<double>() == Approx(1.48598).margin(5e-6));
  CHECK(found[0].facts["temperature_at_target"].get<double>() == tight(1.4859812404361672));  // 0.1 * ln 129 + 1
  CHECK(contains(found[0].message, "multiply them by 1.485981 at position 1048575"));
  CHECK(contains(found[0].message, "= ln(129)·0.1+1"));
}

TEST_CASE("CTX209: silent below position 8191, with tuning on, and without NoPE layers", "[rules][schemes]") {
  CHECK(findings(kLlama4TuningOff, "CTX209", 8191).empty());
  CHECK(findings(kLlama4TuningOff, "CTX209", 4096).empty());
  CHECK(findings(kLlama4TuningOn, "CTX209", 1048576).empty());
  CHECK(findings("testdata/configs/qwen/qwen3-8b.json", "CTX209", 131072).empty());
}

TEST_CASE("CTX209: the floor scale comes from the model", "[rules][schemes]") {
  Model model;
  Layer rope_layer, nope_layer;
  nope_layer.index = 1;
  nope_layer.uses_rope = false;
  model.layers = {rope_layer, nope_layer};
  NopeTemperature tuning;
  tuning.enabled = false;
  tuning.floor_scale = {4.0, Provenance::at("/floor_scale")};
  tuning.attn_scale = {1.0, Provenance::at("/attn_scale")};
  model.nope_temperature = tuning;
  CHECK(run_rule("CTX209", model, 3).empty());  // positions 0..2: floor(3 / 4) = 0
  auto found = run_rule("CTX209", model, 8);    // position 7: floor(8 / 4) = 2, ln 3 + 1
  REQUIRE(found.size() == 1);
  CHECK(found[0].facts["first_scaled_position"] == 3);
  CHECK(found[0].facts["temperature_at_target"].get<double>() == tight(1.0 + std::log(3.0)));
  model.nope_temperature->enabled = true;
  CHECK(run_rule("CTX209", model, 8).empty());
}
