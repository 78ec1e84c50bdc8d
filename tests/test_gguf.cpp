// GGUF: the header reader against valid and hostile files, and the mapping into the Model against the goldens.
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "gguf_writer.hpp"
#include "support.hpp"
#include "ropelens/check/check.hpp"
#include "ropelens/diff/diff.hpp"
#include "ropelens/input/gguf.hpp"
#include "ropelens/input/input.hpp"
#include "ropelens/load/model_loader.hpp"
#include "ropelens/engines/kv_cache.hpp"
#include "ropelens/normalize/normalize.hpp"
#include "ropelens/rope/rope.hpp"

using Catch::Matchers::Contains;
using ropelens::GgufFile;
using ropelens::InputError;
using ropelens::Model;
using ropelens::read_gguf;
using ropelens::read_gguf_bytes;
using ropelens::test::GgufWriter;
using ropelens::test::llama_like;
using ropelens::test::qwen_yarn_fixture;
using ropelens::test::TempDir;
using ropelens::test::TensorSpec;

namespace {

nlohmann::json golden(const std::string& name) {
  std::ifstream in(std::string(ROPELENS_SOURCE_DIR) + "/testdata/gguf/" + name + ".golden.json");
  REQUIRE(in);
  return nlohmann::json::parse(in)["rope_setups"][0];
}

void require_close(const std::vector<double>& actual, const nlohmann::json& expected) {
  REQUIRE(actual.size() == expected.size());
  for (std::size_t i = 0; i < actual.size(); ++i) {
    const double want = expected[i].get<double>();
    INFO("pair " << i << ": " << actual[i] << " vs golden " << want);
    CHECK(std::abs(actual[i] - want) <= 2e-6 * std::abs(want));
  }
}

std::vector<float> as_floats(const nlohmann::json& values) {
  std::vector<float> out;
  for (const auto& v : values) out.push_back(static_cast<float>(v.get<double>()));
  return out;
}

GgufWriter minimal_llama() { return llama_like("llama", 4096, 4, 512, 4); }

// A small weight tensor beside the RoPE ones, so offsets and padding are exercised.
TensorSpec small_weight(const std::string& name) {
  return {name, {8, 4}, ropelens::test::kGgmlF16, std::string(64, '\x01'), std::nullopt};
}

GgufWriter llama31_fixture() {
  GgufWriter w = llama_like("llama", 131072, 32, 4096, 32);
  w.u32("llama.attention.head_count_kv", 8)
      .u32("llama.feed_forward_length", 14336)
      .u32("llama.rope.dimension_count", 128)
      .f32("llama.rope.freq_base", 500000.0f)
      .u32("llama.vocab_size", 128256)
      .u32("general.file_type", 15)
      .f32_tensor("rope_freqs.weight", ropelens::test::llama3_rope_freqs(500000.0, 128, 8.0, 1.0, 4.0, 8192.0))
      .tensor(small_weight("output_norm.weight"));  // not token_embd: CKPT403 would find 4 rows for 128256 tokens
  return w;
}

GgufWriter phi3_fixture() {
  const auto params = golden("phi-3-mini-128k-instruct")["rope_parameters_standardized"];
  GgufWriter w = llama_like("phi3", 131072, 32, 3072, 32);
  w.u32("phi3.attention.head_count_kv", 32)
      .u32("phi3.rope.dimension_count", 96)
      .f32("phi3.rope.freq_base", 10000.0f)
      .u32("phi3.rope.scaling.original_context_length", 4096)
      .f32("phi3.rope.scaling.attn_factor",
           static_cast<float>(std::sqrt(1.0 + std::log(131072.0 / 4096.0) / std::log(4096.0))))
      .tensor(small_weight("token_embd.weight"))
      .f32_tensor("rope_factors_long.weight", as_floats(params["long_factor"]))
      .f32_tensor("rope_factors_short.weight", as_floats(params["short_factor"]));
  return w;
}

GgufWriter deepseek2_fixture() {
  GgufWriter w = llama_like("deepseek2", 163840, 61, 7168, 128);
  w.u32("deepseek2.attention.head_count_kv", 128)
      .u32("deepseek2.attention.q_lora_rank", 1536)
      .u32("deepseek2.attention.kv_lora_rank", 512)
      .u32("deepseek2.attention.key_length", 576)
      .u32("deepseek2.attention.value_length", 512)
      .u32("deepseek2.attention.key_length_mla", 192)
      .u32("deepseek2.attention.value_length_mla", 128)
      .u32("deepseek2.leading_dense_block_count", 3)
      .u32("deepseek2.expert_count", 256)
      .u32("deepseek2.rope.dimension_count", 64)
      .f32("deepseek2.rope.freq_base", 10000.0f)
      .str("deepseek2.rope.scaling.type", "yarn")
      .f32("deepseek2.rope.scaling.factor", 40.0f)
      .u32("deepseek2.rope.scaling.original_context_length", 4096)
      .f32("deepseek2.rope.scaling.yarn_log_multiplier", 0.1f);  // 0.1 · mscale_all_dim (1.0)
  return w;
}

GgufWriter vocabulary_fixture(std::size_t tokens) {
  GgufWriter w = minimal_llama();
  std::vector<std::string> vocab;
  std::vector<float> scores;
  std::vector<std::int32_t> types;
  for (std::size_t i = 0; i < tokens; ++i) {
    vocab.push_back("tok" + std::to_string(i) + std::string(i % 7, 'x'));
    scores.push_back(-static_cast<float>(i));
    types.push_back(1);
  }
  w.str("tokenizer.ggml.model", "gpt2")
      .string_array("tokenizer.ggml.tokens", vocab)
      .f32_array("tokenizer.ggml.scores", scores)
      .i32_array("tokenizer.ggml.token_type", types);
  return w;
}

std::string kv_header(const std::string& key, std::uint32_t type) {
  std::string out;
  ropelens::test::put_string(out, key);
  ropelens::test::put_u32(out, type);
  return out;
}

std::string read_error(const std::string& bytes) {
  try {
    read_gguf_bytes("hostile.gguf", bytes);
  } catch (const InputError& error) {
    return error.what();
  }
  return "(no error)";
}

std::string model_error(const std::string& bytes) {
  try {
    ropelens::model_from_gguf(read_gguf_bytes("model.gguf", bytes));
  } catch (const InputError& error) {
    return error.what();
  }
  return "(no error)";
}

Model model_of(const GgufWriter& writer) {
  return ropelens::model_from_gguf(read_gguf_bytes("fixture.gguf", writer.bytes()));
}

// What the rules about the config itself (or only `code`) find in the model.
std::vector<ropelens::Diagnostic> findings_of(const Model& model, const std::string& code = "") {
  ropelens::CheckOptions options;
  options.selection.select = code.empty() ? std::vector<std::string>{"CFG", "GGUF"} : std::vector<std::string>{code};
  ropelens::LoadedModel loaded;
  loaded.model = model;
  return ropelens::check_model(std::move(loaded), options).diagnostics;
}

bool has_finding(const Model& model, const std::string& code) { return !findings_of(model, code).empty(); }

bool has_note(const Model& model, const std::string& fragment) {
  for (const auto& note : model.notes)
    if (note.find(fragment) != std::string::npos) return true;
  return false;
}

std::string findings_text(const Model& model) {
  std::string out;
  for (const auto& finding : findings_of(model))
    out += finding.code + " " + finding.where.pointer + ": " + finding.message + "\n";
  return out;
}

}  // namespace

TEST_CASE("gguf: Llama-3.1 file with rope_freqs matches the llama3 golden", "[gguf]") {
  TempDir dir;
  const std::string path = dir.file("llama31.gguf");
  llama31_fixture().write(path);
  REQUIRE(ropelens::looks_like_gguf(path));

  const GgufFile file = read_gguf(path);
  CHECK(file.version == 3);
  CHECK(file.tensor_count == 2);
  CHECK(file.rope_tensors.count("rope_freqs.weight") == 1);
  CHECK(file.rope_tensors.at("rope_freqs.weight").size() == 64);

  const Model model = ropelens::model_from_gguf(file);
  INFO(findings_text(model));
  CHECK(findings_of(model).empty());
  CHECK(model.model_type.value == "llama");
  CHECK(model.num_layers.value == 32);
  CHECK(model.layers.size() == 32);
  CHECK(model.max_position_embeddings.value == 131072);
  CHECK(model.max_position_embeddings.from.pointer == "gguf:llama.context_length");
  CHECK(model.pairing.value == ropelens::Pairing::rotate_half);  // NORM on Q/K rows the converter permuted
  CHECK(has_note(model, "NORM"));
  CHECK(has_note(model, "rope_freqs.weight holds llama3 divisors"));
  REQUIRE(model.setups.size() == 1);

  const auto& setup = model.setups[0];
  CHECK(setup.type == ropelens::RopeType::llama3);
  CHECK(setup.rope_type_name.value == "llama3");
  CHECK(setup.rotary_dim == 128);
  CHECK(setup.rope_theta.value == 500000.0);
  REQUIRE(setup.factor);
  CHECK(setup.factor->value == 8.0);
  CHECK(setup.factor->from.pointer == "gguf:rope_freqs.weight");
  CHECK(setup.llama3.low_freq_factor.value == 1.0);
  CHECK(setup.llama3.high_freq_factor.value == 4.0);
  REQUIRE(setup.original_max_position_embeddings);
  CHECK(setup.original_max_position_embeddings->value == 8192);
  CHECK(setup.original_max_position_embeddings->from.pointer == "gguf:rope_freqs.weight");

  // The recovered parameters are the config's, so the frequencies are transformers' float64 ones exactly.
  const auto expected = golden("llama-3.1-8b-instruct-bnb8bit-finetune");
  const auto table = ropelens::compute_rope_table(setup);
  const auto& want = expected["inv_freq_f64"];
  REQUIRE(table.inv_freq.size() == want.size());
  for (std::size_t i = 0; i < want.size(); ++i)
    CHECK(std::abs(table.inv_freq[i] - want[i].get<double>()) <= 1e-12 * want[i].get<double>());
  CHECK(table.attention_factor == 1.0);
}

namespace {

std::string llama31_config() {
  return std::string(ROPELENS_SOURCE_DIR) + "/testdata/configs/llama/llama-3.1-8b-instruct-bnb8bit-finetune.json";
}

ropelens::FileResult checked_at(const std::string& path, std::int64_t target) {
  ropelens::CheckOptions options;
  options.target_tokens = target;
  return ropelens::check_model(ropelens::load_model(path), options);
}

std::vector<const ropelens::Diagnostic*> with_code(const ropelens::FileResult& result, const std::string& code) {
  std::vector<const ropelens::Diagnostic*> out;
  for (const auto& d : result.diagnostics)
    if (d.code == code) out.push_back(&d);
  return out;
}

// llama31_fixture with `divisors` in place of the converter's rope_freqs.
GgufWriter llama31_with_rope_freqs(const std::vector<float>& divisors) {
  GgufWriter w = llama_like("llama", 131072, 32, 4096, 32);
  w.u32("llama.attention.head_count_kv", 8)
      .u32("llama.rope.dimension_count", 128)
      .f32("llama.rope.freq_base", 500000.0f)
      .f32_tensor("rope_freqs.weight", divisors);
  return w;
}

std::vector<float> converter_llama31_divisors() {
  return ropelens::test::llama3_rope_freqs(500000.0, 128, 8.0, 1.0, 4.0, 8192.0);
}

}  // namespace

TEST_CASE("gguf: a Llama-3.1 GGUF audits like its config.json at 262144 and 1M tokens", "[gguf][llama3]") {
  TempDir dir;
  const std::string gguf = dir.file("llama31.gguf");
  llama31_fixture().write(gguf);
  for (const std::int64_t target : {std::int64_t{262144}, std::int64_t{1} << 20, std::int64_t{1000000}}) {
    INFO("target " << target);
    const auto from_config = checked_at(llama31_config(), target);
    const auto from_gguf = checked_at(gguf, target);
    REQUIRE(from_gguf.audit.setups.size() == 1);
    REQUIRE(from_config.audit.setups.size() == 1);
    const auto& config_audit = from_config.audit.setups[0];
    const auto& gguf_audit = from_gguf.audit.setups[0];
    CHECK_FALSE(gguf_audit.missing);
    CHECK(gguf_audit.pretrain_tokens == 8192);
    CHECK(gguf_audit.extension_tokens == 131072);
    CHECK(gguf_audit.out_of_range_pairs == config_audit.out_of_range_pairs);
    CHECK(gguf_audit.out_of_range_pairs.front() == 39);
    CHECK(gguf_audit.out_of_range_pairs.back() == 63);

    const auto config_ctx201 = with_code(from_config, "CTX201");
    const auto gguf_ctx201 = with_code(from_gguf, "CTX201");
    REQUIRE(config_ctx201.size() == 1);
    REQUIRE(gguf_ctx201.size() == 1);
    CHECK_THAT(gguf_ctx201[0]->message, Contains("pairs 39–63 (25 of 64)"));
    CHECK(ropelens::finding_fingerprint(*gguf_ctx201[0]) == ropelens::finding_fingerprint(*config_ctx201[0]));
  }
}

TEST_CASE("gguf: diff of a Llama-3.1 config.json and its GGUF finds nothing fixed or new", "[gguf][llama3][diff]") {
  TempDir dir;
  const std::string gguf = dir.file("llama31.gguf");
  llama31_fixture().write(gguf);
  for (const std::int64_t target : {std::int64_t{262144}, std::int64_t{1000000}}) {
    INFO("target " << target);
    ropelens::CheckOptions options;
    options.target_tokens = target;
    const auto report = ropelens::diff_files(llama31_config(), gguf, options);
    REQUIRE(report.models.size() == 1);
    const auto& findings = report.models[0].findings;
    std::string changed;
    for (const auto& d : findings.introduced) changed += "new " + d.code + ": " + d.message + "\n";
    for (const auto& d : findings.fixed) changed += "fixed " + d.code + ": " + d.message + "\n";
    INFO(changed);
    CHECK(findings.introduced.empty());
    CHECK(findings.fixed.empty());
    bool ctx201_unchanged = false;
    for (const auto& d : findings.unchanged) ctx201_unchanged = ctx201_unchanged || d.code == "CTX201";
    CHECK(ctx201_unchanged);
  }
}

TEST_CASE("gguf: llama3 parameters are recovered for other heads, bases and lengths", "[gguf][llama3]") {
  struct Case {
    double theta;
    std::uint32_t head;
    double factor, low, high, original;
  };
  // Llama 3.2 (factor 32), a 4096-token original with a narrower band, and a head of 64 dims.
  for (const Case c : {Case{500000.0, 128, 32.0, 1.0, 4.0, 8192.0}, Case{500000.0, 64, 32.0, 1.0, 4.0, 8192.0},
                       Case{10000.0, 128, 4.0, 1.0, 2.5, 4096.0}}) {
    INFO("theta " << c.theta << " head " << c.head << " factor " << c.factor << " high " << c.high);
    GgufWriter w = llama_like("llama", 131072, 2, c.head * 8, 8);
    w.f32("llama.rope.freq_base", static_cast<float>(c.theta))
        .f32_tensor("rope_freqs.weight", ropelens::test::llama3_rope_freqs(c.theta, static_cast<int>(c.head), c.factor,
                                                                           c.low, c.high, c.original));
    const Model model = model_of(w);
    REQUIRE(model.setups.size() == 1);
    const auto& setup = model.setups[0];
    CHECK(setup.type == ropelens::RopeType::llama3);
    REQUIRE(setup.factor);
    CHECK(setup.factor->value == c.factor);
    CHECK(setup.llama3.low_freq_factor.value == c.low);
    CHECK(setup.llama3.high_freq_factor.value == c.high);
    REQUIRE(setup.original_max_position_embeddings);
    CHECK(setup.original_max_position_embeddings->value == static_cast<std::int64_t>(c.original));
    CHECK(model.issues.empty());
  }
}

TEST_CASE("gguf: rope_freqs that fit no llama3 closed form make no angle claim", "[gguf][llama3][GGUF004]") {
  std::vector<float> nudged = converter_llama31_divisors();
  nudged[31] *= 1.001f;  // one band divisor off by 0.1%
  std::vector<float> ramp(64);
  for (std::size_t i = 0; i < ramp.size(); ++i) ramp[i] = 1.0f + static_cast<float>(i) / 8.0f;
  std::vector<float> step(64, 1.0f);  // a hard step: no band pair places the original length
  std::fill(step.begin() + 40, step.end(), 8.0f);
  std::vector<float> linear(64, 4.0f);  // linear scaling carried as rope_freqs

  const std::vector<std::pair<std::string, std::vector<float>>> cases = {
      {"where the nearest llama3 closed form gives", nudged},
      {"no llama3 scaling", ramp},
      {"0 pairs lie between 1 and the factor", step},
      {"0 pairs lie between 1 and the factor", linear}};
  for (const auto& [fragment, divisors] : cases) {
    INFO(fragment);
    TempDir dir;
    const std::string path = dir.file("odd.gguf");
    llama31_with_rope_freqs(divisors).write(path);
    const auto result = checked_at(path, 262144);
    REQUIRE(result.audit.setups.size() == 1);
    REQUIRE(result.audit.setups[0].missing);
    CHECK_THAT(*result.audit.setups[0].missing, Contains("no llama3 closed form"));
    CHECK(result.audit.setups[0].pairs.empty());
    CHECK(with_code(result, "CTX201").empty());
    const auto gguf004 = with_code(result, "GGUF004");
    REQUIRE(gguf004.size() == 1);
    CHECK_THAT(gguf004[0]->message, Contains(fragment));
    CHECK(gguf004[0]->where.pointer == "gguf:rope_freqs.weight");
    CHECK(result.model.setups[0].type == ropelens::RopeType::longrope);  // the divisors still give the frequencies

    // With the trained length given, the audit runs on the divisors.
    ropelens::CheckOptions options;
    options.target_tokens = 262144;
    options.training.trained_length = 8192;
    const auto with_length = ropelens::check_model(ropelens::load_model(path), options);
    CHECK_FALSE(with_length.audit.setups[0].missing);
    CHECK(with_length.audit.setups[0].pretrain_tokens == 8192);
  }
}

TEST_CASE("gguf: a YaRN factor over rope_freqs divides the YaRN frequencies by the divisors", "[gguf][llama3][yarn]") {
  const std::vector<float> divisors = converter_llama31_divisors();
  GgufWriter w = llama31_with_rope_freqs(divisors);
  w.str("llama.rope.scaling.type", "yarn")
      .f32("llama.rope.scaling.factor", 4.0f)
      .u32("llama.rope.scaling.original_context_length", 8192);
  const Model model = model_of(w);
  REQUIRE(model.setups.size() == 1);
  const auto& setup = model.setups[0];
  CHECK(setup.type == ropelens::RopeType::yarn);
  CHECK(setup.rope_type_name.from.pointer == "gguf:llama.rope.scaling.type");
  REQUIRE(setup.frequency_divisors);
  CHECK(setup.frequency_divisors->from.pointer == "gguf:rope_freqs.weight");
  CHECK(has_note(model, "applies on top of rope_freqs.weight"));
  CHECK_FALSE(has_finding(model, "GGUF004"));

  // ggml's rope_yarn mixes the divided frequency's interpolated and extrapolated angles with a ramp from the
  // undivided base, so each pair is YaRN's frequency over its divisor.
  ropelens::RopeSetup without = setup;
  without.frequency_divisors.reset();
  const auto yarn = ropelens::compute_rope_table(without);
  const auto divided = ropelens::compute_rope_table(setup);
  REQUIRE(divided.inv_freq.size() == 64);
  for (std::size_t i = 0; i < 64; ++i) {
    INFO("pair " << i);
    CHECK(divided.inv_freq[i] == yarn.inv_freq[i] / static_cast<double>(divisors[i]));
  }
  CHECK(divided.attention_factor == yarn.attention_factor);
}

TEST_CASE("gguf: a factor of 1 over rope_freqs keeps the llama3 reading", "[gguf][llama3]") {
  GgufWriter w = llama31_with_rope_freqs(converter_llama31_divisors());
  w.str("llama.rope.scaling.type", "yarn").f32("llama.rope.scaling.factor", 1.0f);
  const Model model = model_of(w);
  REQUIRE(model.setups.size() == 1);
  CHECK(model.setups[0].type == ropelens::RopeType::llama3);
  CHECK_FALSE(model.setups[0].frequency_divisors);
}

TEST_CASE("gguf: rope_freqs of only 1s is no scaling and no issue", "[gguf][llama3]") {
  const Model model = model_of(llama31_with_rope_freqs(std::vector<float>(64, 1.0f)));
  CHECK(model.issues.empty());
  CHECK(has_note(model, "holds only 1s"));
  CHECK_FALSE(has_finding(model, "GGUF004"));
}

TEST_CASE("gguf: hostile rope_freqs stay an issue, never a crash", "[gguf][llama3][hostile]") {
  std::vector<float> with_nan = converter_llama31_divisors();
  with_nan[30] = std::nanf("");
  std::vector<float> with_inf = converter_llama31_divisors();
  with_inf[63] = std::numeric_limits<float>::infinity();
  std::vector<float> zeros(64, 0.0f);
  std::vector<float> negative = converter_llama31_divisors();
  negative[10] = -1.0f;
  std::vector<float> tiny(64, std::numeric_limits<float>::denorm_min());
  std::vector<float> huge = converter_llama31_divisors();
  huge[63] = std::numeric_limits<float>::max();
  const std::vector<std::pair<std::string, std::vector<float>>> cases = {
      {"entry 30 is nan", with_nan},
      {"entry 63 is inf", with_inf},
      {"entry 0 is 0", zeros},
      {"entry 10 is -1", negative},
      {"slowest pair", tiny},
      {"rope_freqs.weight is no llama3 scaling", huge},
      {"it has 32 values for 64 rotary pairs",
       [] {
         auto shorter = converter_llama31_divisors();
         shorter.resize(32);
         return shorter;
       }()},
      {"it has 65 values for 64 rotary pairs",
       [] {
         auto longer = converter_llama31_divisors();
         longer.push_back(8.0f);
         return longer;
       }()},
  };
  for (const auto& [fragment, divisors] : cases) {
    INFO(fragment);
    TempDir dir;
    const std::string path = dir.file("hostile.gguf");
    llama31_with_rope_freqs(divisors).write(path);
    ropelens::FileResult result;
    REQUIRE_NOTHROW(result = checked_at(path, 1000000));
    REQUIRE(result.audit.setups.size() == 1);
    CHECK(result.audit.setups[0].missing);
    const auto gguf004 = with_code(result, "GGUF004");
    REQUIRE(gguf004.size() == 1);
    CHECK_THAT(gguf004[0]->message, Contains(fragment));
  }
}

TEST_CASE("gguf: Phi-3 file with long/short factors matches the longrope golden", "[gguf]") {
  const Model model = model_of(phi3_fixture());
  INFO(findings_text(model));
  CHECK(findings_of(model).empty());
  CHECK(model.pairing.value == ropelens::Pairing::rotate_half);
  REQUIRE(model.original_max_position_embeddings);
  CHECK(model.original_max_position_embeddings->value == 4096);
  REQUIRE(model.setups.size() == 1);

  const auto& setup = model.setups[0];
  CHECK(setup.type == ropelens::RopeType::longrope);
  CHECK(setup.head_dim.value == 96);
  CHECK(setup.longrope.long_factor.from.pointer == "gguf:rope_factors_long.weight");
  REQUIRE(setup.longrope.attention_factor);
  CHECK(setup.longrope.attention_factor->from.pointer == "gguf:phi3.rope.scaling.attn_factor");

  const auto expected = golden("phi-3-mini-128k-instruct");
  const auto short_table = ropelens::compute_rope_table(setup);
  require_close(short_table.inv_freq, expected["inv_freq_f64"]);
  CHECK(short_table.attention_factor == Approx(expected["attention_factor"].get<double>()).epsilon(2e-6));
  const auto long_table = ropelens::compute_rope_table(setup, 4097);
  require_close(long_table.inv_freq,
                expected["variants"]["long (seq_len=4097 > original_max_position_embeddings)"]["inv_freq_f64"]);
}

TEST_CASE("gguf: Qwen2 yarn file matches the yarn golden", "[gguf]") {
  const Model model = model_of(qwen_yarn_fixture());
  INFO(findings_text(model));
  CHECK(findings_of(model).empty());  // context_length == original_context_length is the converter's normal layout
  CHECK(model.pairing.value == ropelens::Pairing::rotate_half);
  REQUIRE(model.setups.size() == 1);

  const auto& setup = model.setups[0];
  CHECK(setup.type == ropelens::RopeType::yarn);
  CHECK(setup.rope_type_name.value == "yarn");
  CHECK(setup.rope_type_name.from.pointer == "gguf:qwen2.rope.scaling.type");
  CHECK(setup.head_dim.value == 128);
  CHECK(setup.head_dim.from.origin == ropelens::Origin::derived);
  REQUIRE(setup.factor);
  CHECK(setup.factor->value == 4.0);
  CHECK(setup.yarn.beta_fast.value == 32.0);
  CHECK(setup.yarn.beta_fast.from.origin == ropelens::Origin::defaulted);
  CHECK(setup.yarn.truncate.value);

  const auto expected = golden("qwen2.5-coder-32b-instruct-historical-yarn");
  const auto table = ropelens::compute_rope_table(setup);
  require_close(table.inv_freq, expected["inv_freq_f64"]);
  CHECK(table.attention_factor == Approx(expected["attention_factor"].get<double>()));
}

TEST_CASE("gguf: DeepSeek2 file undoes the 0.1 yarn_log_multiplier and matches the golden", "[gguf]") {
  const Model model = model_of(deepseek2_fixture());
  INFO(findings_text(model));
  CHECK(findings_of(model).empty());
  CHECK(model.pairing.value == ropelens::Pairing::interleaved);  // llama.cpp runs deepseek2 in NORM mode
  REQUIRE(model.qk_nope_head_dim);
  CHECK(model.qk_nope_head_dim->value == 128);
  REQUIRE(model.setups.size() == 1);

  const auto& setup = model.setups[0];
  CHECK(setup.head_dim.value == 64);
  CHECK(setup.rotary_dim == 64);
  CHECK(setup.type == ropelens::RopeType::yarn);
  REQUIRE(setup.yarn.mscale_all_dim);
  CHECK(setup.yarn.mscale_all_dim->value == 1.0);
  CHECK(setup.yarn.mscale_all_dim->from.origin == ropelens::Origin::derived);
  REQUIRE(setup.yarn.mscale);
  CHECK(setup.yarn.mscale->value == setup.yarn.mscale_all_dim->value);

  const auto expected = golden("deepseek-v3");
  const auto table = ropelens::compute_rope_table(setup);
  require_close(table.inv_freq, expected["inv_freq_f64"]);
  CHECK(table.attention_factor == Approx(expected["attention_factor"].get<double>()));
}

TEST_CASE("gguf: yarn_log_multiplier is mscale_all_dim outside deepseek2", "[gguf]") {
  GgufWriter w = qwen_yarn_fixture();
  w.f32("qwen2.rope.scaling.yarn_log_multiplier", 1.0f);
  const Model model = model_of(w);
  const auto& setup = model.setups.at(0);
  REQUIRE(setup.yarn.mscale_all_dim);
  CHECK(setup.yarn.mscale_all_dim->value == 1.0);
  CHECK(setup.yarn.mscale_all_dim->from.origin == ropelens::Origin::config);
  REQUIRE(setup.yarn.mscale);
  CHECK(setup.yarn.mscale->value == 1.0);
  CHECK(setup.yarn.mscale->from.origin == ropelens::Origin::defaulted);
}

TEST_CASE("gguf: a 150,000-entry vocabulary is skipped by its lengths", "[gguf]") {
  TempDir dir;
  const std::string path = dir.file("vocab.gguf");
  vocabulary_fixture(150000).write(path);

  const auto start = std::chrono::steady_clock::now();
  const GgufFile file = read_gguf(path);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CHECK(seconds < 5.0);  // generous: the read is a few milliseconds, even under sanitizers it is well below this

  const auto* tokens = file.find("tokenizer.ggml.tokens");
  REQUIRE(tokens);
  REQUIRE(tokens->as_array());
  CHECK(tokens->as_array()->element_type == ropelens::GgufType::string);
  CHECK(tokens->as_array()->count == 150000);
  CHECK(tokens->as_array()->elements.empty());
  const auto* scores = file.find("tokenizer.ggml.scores");
  REQUIRE(scores);
  CHECK(scores->as_array()->count == 150000);
  CHECK_FALSE(scores->as_array()->kept());
  CHECK(file.find("tokenizer.ggml.model")->as_string());
  CHECK(ropelens::model_from_gguf(file).num_layers.value == 4);
}

TEST_CASE("gguf: small numeric arrays are kept with their element types", "[gguf]") {
  GgufWriter w = minimal_llama();
  w.i32_array("llama.rope.dimension_sections", {16, 24, 24, 0}).bool_array("flags", {true, false});
  const GgufFile file = read_gguf_bytes("arrays.gguf", w.bytes());
  const auto* sections = file.find("llama.rope.dimension_sections")->as_array();
  REQUIRE(sections);
  REQUIRE(sections->kept());
  CHECK(std::get<std::int64_t>(sections->elements[1]) == 24);
  CHECK(std::get<bool>(file.find("flags")->as_array()->elements[0]));
  CHECK(ropelens::model_from_gguf(file).setups.at(0).mrope_section == std::vector<int>{16, 24, 24});
}

TEST_CASE("gguf: every integer width and both float widths are accepted", "[gguf]") {
  GgufWriter w;
  w.str("general.architecture", "llama")
      .u64("llama.context_length", 8192)
      .i32("llama.block_count", 2)
      .u16("llama.attention.head_count", 8)
      .i64("llama.embedding_length", 1024)
      .u8("llama.rope.dimension_count", 128)
      .f64("llama.rope.freq_base", 250000.0)
      .i16("other.i16", -3)
      .i8("other.i8", -4)
      .boolean("llama.rope.scaling.finetuned", true);
  const GgufFile file = read_gguf_bytes("widths.gguf", w.bytes());
  CHECK(file.find("other.i16")->as_integer() == -3);
  CHECK(file.find("other.i8")->as_integer() == -4);
  const Model model = ropelens::model_from_gguf(file);
  CHECK(model.max_position_embeddings.value == 8192);
  CHECK(model.num_layers.value == 2);
  CHECK(model.setups.at(0).rope_theta.value == 250000.0);
  CHECK(model.setups.at(0).rotary_dim == 128);
  CHECK(has_note(model, "finetuned"));
}

TEST_CASE("gguf: absent keys take llama.cpp's loader defaults", "[gguf]") {
  const Model model = model_of(minimal_llama());
  CHECK(findings_of(model).empty());
  REQUIRE(model.setups.size() == 1);
  const auto& setup = model.setups[0];
  CHECK(setup.type == ropelens::RopeType::default_rope);
  CHECK(setup.rope_theta.value == 10000.0);
  CHECK(setup.rope_theta.from.origin == ropelens::Origin::defaulted);
  CHECK(setup.head_dim.value == 128);
  CHECK(setup.rotary_dim == 128);
  CHECK_FALSE(model.original_max_position_embeddings);
  CHECK(model.layers.size() == 4);
  CHECK(model.layers[3].setup == 0);
  CHECK(model.layers[3].attention == ropelens::AttentionKind::global);
}

TEST_CASE("gguf: linear scaling needs a factor, and the legacy scale_linear key counts", "[gguf]") {
  GgufWriter plain = minimal_llama();
  plain.str("llama.rope.scaling.type", "linear").f32("llama.rope.scaling.factor", 0.0f);
  CHECK(model_of(plain).setups.at(0).type == ropelens::RopeType::default_rope);

  GgufWriter legacy = minimal_llama();
  legacy.f32("llama.rope.scale_linear", 4.0f);
  const Model model = model_of(legacy);
  const auto& setup = model.setups.at(0);
  CHECK(setup.type == ropelens::RopeType::linear);
  REQUIRE(setup.factor);
  CHECK(setup.factor->value == 4.0);
  CHECK(setup.factor->from.pointer == "gguf:llama.rope.scale_linear");

  GgufWriter longrope_factor = minimal_llama();  // no factor tensors: llama.cpp still applies freq_scale 1/4
  longrope_factor.str("llama.rope.scaling.type", "longrope").f32("llama.rope.scaling.factor", 4.0f);
  const Model interpolated = model_of(longrope_factor);
  CHECK(interpolated.setups.at(0).type == ropelens::RopeType::linear);
  CHECK_FALSE(has_finding(interpolated, "GGUF001"));

  GgufWriter unknown = minimal_llama();
  unknown.str("llama.rope.scaling.type", "ntk");
  const Model unscaled = model_of(unknown);
  CHECK(unscaled.setups.at(0).type == ropelens::RopeType::default_rope);
  CHECK(has_note(unscaled, "unknown rope.scaling.type 'ntk'"));
}

TEST_CASE("gguf: partial rotary dims give a partial rotary factor", "[gguf]") {
  GgufWriter w = llama_like("stablelm", 4096, 2, 2560, 32);  // head 80
  w.u32("stablelm.rope.dimension_count", 20);
  const Model model = model_of(w);
  const auto& setup = model.setups.at(0);
  CHECK(setup.head_dim.value == 80);
  CHECK(setup.rotary_dim == 20);
  CHECK(static_cast<int>(setup.head_dim.value * setup.partial_rotary_factor.value) == 20);

  GgufWriter too_many = llama_like("stablelm", 4096, 2, 2560, 32);
  too_many.u32("stablelm.rope.dimension_count", 96);
  CHECK_THAT(model_error(too_many.bytes()), Contains("rope.dimension_count 96 exceeds the head size 80"));
}

TEST_CASE("gguf: sliding layers follow the pattern and get their own base", "[gguf]") {
  SECTION("gemma3: hard-coded period 6, unscaled sliding layers with base 10000") {
    GgufWriter w = llama_like("gemma3", 131072, 12, 2560, 8);
    w.u32("gemma3.attention.key_length", 256)
        .u32("gemma3.attention.sliding_window", 1024)
        .f32("gemma3.rope.freq_base", 1000000.0f)
        .str("gemma3.rope.scaling.type", "linear")
        .f32("gemma3.rope.scaling.factor", 8.0f);
    const Model model = model_of(w);
    REQUIRE(model.setups.size() == 2);
    CHECK(model.setups[0].name == "full_attention");
    CHECK(model.setups[0].type == ropelens::RopeType::linear);
    CHECK(model.setups[0].layers == std::vector<int>{5, 11});
    CHECK(model.setups[1].name == "sliding_attention");
    CHECK(model.setups[1].type == ropelens::RopeType::default_rope);
    CHECK(model.setups[1].rope_theta.value == 10000.0);
    CHECK(model.setups[1].window_tokens->value == 1024);
    CHECK(model.layers[0].attention == ropelens::AttentionKind::sliding);
    CHECK(model.layers[0].window_tokens == 1024);
    CHECK(model.layers[5].attention == ropelens::AttentionKind::global);
    CHECK(model.layers[5].setup == 0);
  }
  SECTION("gpt-oss: alternating layers sharing one setup") {
    GgufWriter w = llama_like("gpt-oss", 131072, 4, 2880, 64);
    w.u32("gpt-oss.attention.key_length", 64).u32("gpt-oss.attention.sliding_window", 128);
    const Model model = model_of(w);
    REQUIRE(model.setups.size() == 1);
    CHECK(model.setups[0].attention == ropelens::AttentionKind::global);
    CHECK(model.layers[0].attention == ropelens::AttentionKind::sliding);
    CHECK(model.layers[1].attention == ropelens::AttentionKind::global);
  }
  SECTION("an explicit per-layer pattern and freq_base_swa") {
    GgufWriter w = minimal_llama();
    w.u32("llama.attention.sliding_window", 512)
        .bool_array("llama.attention.sliding_window_pattern", {true, true, false, true})
        .f32("llama.rope.freq_base_swa", 5000.0f);
    const Model model = model_of(w);
    REQUIRE(model.setups.size() == 2);
    CHECK(model.setups[1].rope_theta.value == 5000.0);
    CHECK(model.setups[1].layers == std::vector<int>{0, 1, 3});
  }
  SECTION("every layer sliding with freq_base_swa: one setup with that base") {
    GgufWriter w = minimal_llama();
    w.u32("llama.attention.sliding_window", 512).f32("llama.rope.freq_base_swa", 5000.0f);
    const Model model = model_of(w);
    REQUIRE(model.setups.size() == 1);
    CHECK(model.setups[0].rope_theta.value == 5000.0);
    CHECK(model.setups[0].attention == ropelens::AttentionKind::sliding);
    CHECK(model.setups[0].layers == std::vector<int>{0, 1, 2, 3});
  }
  SECTION("a window without a pattern makes every layer slide") {
    GgufWriter w = minimal_llama();
    w.u32("llama.attention.sliding_window", 4096);
    const Model model = model_of(w);
    REQUIRE(model.setups.size() == 1);
    CHECK(model.setups[0].attention == ropelens::AttentionKind::sliding);
    CHECK(model.setups[0].window_tokens->value == 4096);
  }
}

TEST_CASE("gguf: architectures without RoPE map to their scheme", "[gguf]") {
  GgufWriter w = llama_like("bloom", 2048, 2, 1024, 16);
  w.f32("bloom.attention.max_alibi_bias", 8.0f);
  const Model model = model_of(w);
  CHECK(model.scheme == ropelens::PositionScheme::alibi);
  CHECK(model.setups.empty());
  REQUIRE(model.alibi);
  CHECK(model.alibi->num_heads == 16);
  CHECK(model_of(llama_like("gpt2", 1024, 2, 768, 12)).scheme == ropelens::PositionScheme::learned_absolute);
}

// Found by the check fuzz target: max_alibi_bias 0 reached alibi_slopes, which refuses it (an internal error).
TEST_CASE("gguf: a max_alibi_bias that is not positive is an issue, and the default 8 stays", "[gguf]") {
  for (float bias : {0.0f, -2.0f}) {
    GgufWriter w = llama_like("bloom", 2048, 2, 1024, 16);
    w.f32("bloom.attention.max_alibi_bias", bias);
    const Model model = model_of(w);
    REQUIRE(model.alibi);
    CHECK(model.alibi->bias_max.value == 8.0);
    REQUIRE(model.issues.size() == 1);
    CHECK(model.issues[0].pointer == "gguf:bloom.attention.max_alibi_bias");
  }
  GgufWriter w = llama_like("bloom", 2048, 2, 1024, 16);
  w.f32("bloom.attention.max_alibi_bias", 4.0f);
  CHECK(model_of(w).alibi->bias_max.value == 4.0);
}

TEST_CASE("gguf: GGUF001 flags a claimed extension that nothing implements", "[gguf][GGUF001]") {
  SECTION("context beyond the original length with scaling type none") {
    GgufWriter w = llama_like("qwen2", 131072, 2, 1024, 8);
    w.str("qwen2.rope.scaling.type", "none").u32("qwen2.rope.scaling.original_context_length", 32768);
    const Model model = model_of(w);
    const auto found = findings_of(model, "GGUF001");
    REQUIRE(found.size() == 1);
    CHECK(found[0].where.pointer == "gguf:qwen2.rope.scaling.original_context_length");
    CHECK_THAT(found[0].message, Contains("context_length 131072 exceeds original_context_length 32768"));
  }
  SECTION("a factor the scaling type ignores") {
    GgufWriter w = minimal_llama();
    w.str("llama.rope.scaling.type", "none").f32("llama.rope.scaling.factor", 4.0f);
    const Model model = model_of(w);
    const auto found = findings_of(model, "GGUF001");
    REQUIRE(found.size() == 1);
    CHECK_THAT(found[0].message, Contains("rope.scaling.factor 4 implies an extended context"));
  }
  SECTION("yarn without a factor") {
    GgufWriter w = minimal_llama();
    w.str("llama.rope.scaling.type", "yarn");
    CHECK(has_finding(model_of(w), "GGUF001"));
  }
  SECTION("longrope without factor tensors") {
    GgufWriter w = minimal_llama();
    w.str("llama.rope.scaling.type", "longrope");
    CHECK(has_finding(model_of(w), "GGUF001"));
  }
}

TEST_CASE("gguf: GGUF002 flags factor tensors that do not fit the rotary dims", "[gguf][GGUF002]") {
  SECTION("too short") {
    GgufWriter w = minimal_llama();
    w.f32_tensor("rope_freqs.weight", std::vector<float>(32, 2.0f));
    const Model model = model_of(w);
    const auto found = findings_of(model, "GGUF002");
    REQUIRE(found.size() == 1);
    CHECK_THAT(found[0].message, Contains("rope_freqs.weight has 32 values but rotary_dim 128 needs 64"));
    CHECK(model.setups.at(0).longrope.short_factor.value.size() == 64);
  }
  SECTION("not positive") {
    GgufWriter w = minimal_llama();
    std::vector<float> divisors(64, 1.0f);
    divisors[3] = -1.0f;
    w.f32_tensor("rope_freqs.weight", divisors);
    const Model model = model_of(w);
    const auto found = findings_of(model, "GGUF002");
    REQUIRE(found.size() == 1);
    CHECK_THAT(found[0].message, Contains("rope_freqs.weight[3] is -1"));
  }
}

TEST_CASE("gguf: GGUF003 flags inconsistent context lengths", "[gguf][GGUF003]") {
  SECTION("original longer than the context") {
    GgufWriter w = minimal_llama();  // context 4096
    w.u32("llama.rope.scaling.original_context_length", 8192);
    const Model model = model_of(w);
    REQUIRE(has_finding(model, "GGUF003"));
    CHECK_THAT(findings_text(model), Contains("original_context_length 8192 exceeds context_length 4096"));
  }
  SECTION("context neither the original nor factor times the original") {
    GgufWriter w = llama_like("qwen2", 65536, 2, 1024, 8);
    w.str("qwen2.rope.scaling.type", "yarn")
        .f32("qwen2.rope.scaling.factor", 4.0f)
        .u32("qwen2.rope.scaling.original_context_length", 32768);
    const Model model = model_of(w);
    REQUIRE(has_finding(model, "GGUF003"));
    CHECK_THAT(findings_text(model), Contains("context_length 65536 is neither original_context_length 32768 nor "
                                              "factor × original (4 × 32768 = 131072)"));
  }
  SECTION("factor times the original is consistent") {
    CHECK_FALSE(has_finding(model_of(deepseek2_fixture()), "GGUF003"));
  }
}

TEST_CASE("gguf: the model needs an architecture and llama.cpp's required keys", "[gguf]") {
  GgufWriter no_arch;
  no_arch.u32("llama.context_length", 4096);
  CHECK_THAT(model_error(no_arch.bytes()), Contains("general.architecture is missing"));

  GgufWriter no_context;
  no_context.str("general.architecture", "llama").u32("llama.block_count", 2);
  CHECK_THAT(model_error(no_context.bytes()), Contains("llama.context_length is missing or unusable"));

  GgufWriter no_heads;
  no_heads.str("general.architecture", "llama").u32("llama.block_count", 2).u32("llama.context_length", 4096);
  CHECK_THAT(model_error(no_heads.bytes()), Contains("cannot tell the head size"));

  GgufWriter wrong_type = minimal_llama();
  wrong_type.str("llama.rope.freq_base", "lots");
  const Model model = model_of(wrong_type);
  CHECK(model.setups.at(0).rope_theta.value == 10000.0);
  const auto found = findings_of(model, "CFG001");
  REQUIRE(found.size() == 1);
  CHECK(found[0].where.pointer == "gguf:llama.rope.freq_base");
  CHECK(found[0].message == "llama.rope.freq_base must be a number, got string; ignored (llama.cpp would not load it)");

  GgufWriter zero_base = minimal_llama();
  zero_base.f32("llama.rope.freq_base", 0.0f).f32("llama.rope.scaling.factor", -2.0f);
  const Model zero = model_of(zero_base);
  CHECK(zero.setups.at(0).rope_theta.value == 10000.0);
  CHECK_THAT(findings_text(zero), Contains("llama.rope.freq_base 0 must be positive"));
  CHECK_THAT(findings_text(zero), Contains("llama.rope.scaling.factor -2 is negative"));
}

TEST_CASE("gguf: header errors name the problem and the byte", "[gguf][hostile]") {
  const std::string valid = minimal_llama().bytes();
  auto with_u32_at = [&](std::size_t offset, std::uint32_t value) {
    std::string bytes = valid;
    for (int i = 0; i < 4; ++i) bytes[offset + i] = static_cast<char>((value >> (8 * i)) & 0xFF);
    return bytes;
  };
  CHECK_THAT(read_error(with_u32_at(4, 1)), Contains("GGUF version 1 is no longer supported"));
  CHECK_THAT(read_error(with_u32_at(4, 0x03000000)), Contains("probably a big-endian GGUF file"));
  CHECK_THAT(read_error(with_u32_at(4, 4)), Contains("unsupported GGUF version 4 at byte 4"));
  CHECK_THAT(read_error(with_u32_at(4, 0)), Contains("GGUF version 0 at byte 4 is invalid"));
  CHECK(read_error(with_u32_at(4, 2)) == "(no error)");
  CHECK_THAT(read_error("GGML" + valid.substr(4)), Contains("not a GGUF file: the first 4 bytes are 'GGML'"));
  CHECK_THAT(read_error("GG"), Contains("too short for the magic"));
  CHECK_THAT(read_error(""), Contains("hostile.gguf: not a GGUF file"));

  CHECK_THAT(read_error(GgufWriter().kv_count(std::uint64_t{1} << 40).bytes()),
             Contains("key-value count 1099511627776 at byte 16 is beyond the limit"));
  CHECK_THAT(read_error(GgufWriter().tensor_count(std::uint64_t{1} << 40).bytes()),
             Contains("tensor count 1099511627776 at byte 8 is beyond the limit"));
  CHECK_THAT(read_error(GgufWriter().kv_count(1000).bytes()),
             Contains("1000 key-values and 0 tensor infos need at least 13000 bytes, but only 0 follow"));
}

TEST_CASE("gguf: hostile key-values are rejected before anything is allocated", "[gguf][hostile]") {
  using namespace ropelens::test;
  SECTION("absurd numeric array length") {
    std::string kv = kv_header("big", kArray);
    put_u32(kv, kU32);
    put_u64(kv, std::uint64_t{1} << 62);
    CHECK_THAT(read_error(GgufWriter().raw_kv(kv).bytes()),
               Contains("array 'big' at byte 24: 4611686018427387904 elements of 4 bytes cannot fit in the 0 bytes"));
  }
  SECTION("absurd string array length") {
    std::string kv = kv_header("tokenizer.ggml.tokens", kArray);
    put_u32(kv, kString);
    put_u64(kv, std::uint64_t{1} << 61);
    CHECK_THAT(read_error(GgufWriter().raw_kv(kv).bytes()), Contains("strings cannot fit in the 0 bytes left"));
  }
  SECTION("string array whose strings are missing") {
    std::string kv = kv_header("tokens", kArray);
    put_u32(kv, kString);
    put_u64(kv, 2);
    put_string(kv, "a");
    put_u64(kv, 100);  // the second string claims 100 bytes; none follow
    CHECK_THAT(read_error(GgufWriter().raw_kv(kv).bytes()),
               Contains("a string in array 'tokens' at byte 63: length 100 is longer than the 0 bytes left"));
  }
  SECTION("absurd string length") {
    std::string kv = kv_header("general.name", kString);
    put_u64(kv, std::uint64_t{1} << 63);
    CHECK_THAT(read_error(GgufWriter().raw_kv(kv).bytes()),
               Contains("the string value of 'general.name' at byte 24: length 9223372036854775808 is longer than the "
                        "0 bytes left"));
  }
  SECTION("absurd key length") {
    std::string kv;
    put_u64(kv, 0xFFFFFFFFFFFFFFF0ull);
    put_u64(kv, 0);
    put_u64(kv, 0);
    CHECK_THAT(read_error(GgufWriter().raw_kv(kv).bytes()), Contains("key at byte 24: length 18446744073709551600"));
  }
  SECTION("key longer than the name limit") {
    std::string kv = kv_header(std::string(70000, 'k'), kU8);
    put_u8(kv, 1);
    CHECK_THAT(read_error(GgufWriter().raw_kv(kv).bytes()), Contains("exceeds the limit of 65535 bytes"));
  }
  SECTION("nested array") {
    std::string kv = kv_header("nested", kArray);
    put_u32(kv, kArray);
    put_u64(kv, 1);
    CHECK_THAT(read_error(GgufWriter().raw_kv(kv).bytes()),
               Contains("array 'nested' at byte 24: nested arrays are not supported"));
  }
  SECTION("unknown value and element types") {
    std::string value = kv_header("odd", 13);
    put_u64(value, 0);
    CHECK_THAT(read_error(GgufWriter().raw_kv(value).bytes()), Contains("key 'odd' at byte 24: unknown value type 13"));
    std::string element = kv_header("odd", kArray);
    put_u32(element, 99);
    put_u64(element, 0);
    CHECK_THAT(read_error(GgufWriter().raw_kv(element).bytes()), Contains("unknown element type 99"));
  }
  SECTION("duplicate key") {
    GgufWriter w = minimal_llama();
    w.u32("llama.block_count", 8);
    CHECK_THAT(read_error(w.bytes()), Contains("duplicate key 'llama.block_count' at byte"));
  }
}

TEST_CASE("gguf: alignment must be a u32 power of two that leaves the data inside the file", "[gguf][hostile]") {
  CHECK_THAT(read_error(GgufWriter().u32("general.alignment", 0).bytes()),
             Contains("general.alignment 0 at byte 24 is not a power of two"));
  CHECK_THAT(read_error(GgufWriter().u32("general.alignment", 48).bytes()),
             Contains("general.alignment 48 at byte 24 is not a power of two"));
  CHECK_THAT(read_error(GgufWriter().u64("general.alignment", 32).bytes()),
             Contains("general.alignment at byte 24 must be a u32, found u64"));

  GgufWriter huge = minimal_llama();
  huge.u32("general.alignment", 1u << 31)
      .layout_alignment(32)
      .f32_tensor("rope_freqs.weight", std::vector<float>(64, 1.0f));
  CHECK_THAT(read_error(huge.bytes()), Contains("the data section would start at byte 2147483648"));

  GgufWriter wide = minimal_llama();
  wide.alignment(64).f32_tensor("rope_freqs.weight", std::vector<float>(64, 2.0f)).tensor(small_weight("w"));
  const GgufFile file = read_gguf_bytes("aligned.gguf", wide.bytes());
  CHECK(file.alignment == 64);
  CHECK(file.data_offset % 64 == 0);
  CHECK(file.rope_tensors.at("rope_freqs.weight")[63] == 2.0f);
}

TEST_CASE("gguf: hostile tensor infos are rejected", "[gguf][hostile]") {
  using ropelens::test::kGgmlF16;
  using ropelens::test::kGgmlF32;
  auto with_tensor = [](TensorSpec spec) {
    GgufWriter w = minimal_llama();
    w.tensor(std::move(spec));
    return w.bytes();
  };
  CHECK_THAT(read_error(with_tensor({"w", {64}, kGgmlF32, {}, 3})), Contains("tensor 'w' (info at byte"));
  CHECK_THAT(read_error(with_tensor({"w", {64}, kGgmlF32, {}, 3})),
             Contains("data offset 3 is not a multiple of the alignment 32"));
  CHECK_THAT(read_error(with_tensor({"w", {64}, kGgmlF32, {}, 0xFFFFFFFFFFFFFFE0ull})),
             Contains("overflows when added to the data section start"));
  CHECK_THAT(read_error(with_tensor({"w", {64}, kGgmlF32, {}, 1u << 20})), Contains("lies beyond the end of the file"));
  CHECK_THAT(read_error(with_tensor({"rope_freqs.weight", {64}, kGgmlF32, std::string(128, '\0'), std::nullopt})),
             Contains("64 elements of F32") && Contains("run past the end of the file"));
  CHECK_THAT(read_error(with_tensor({"w", {1, 1, 1, 1, 1}, kGgmlF32, std::string(4, '\0'), std::nullopt})),
             Contains("5 dimensions, more than the 4 ggml supports"));
  CHECK_THAT(read_error(with_tensor({"w", {1ull << 40, 1ull << 40}, kGgmlF32, {}, 0})),
             Contains("its element count overflows"));
  CHECK_THAT(read_error(with_tensor({"w", {1ull << 63}, kGgmlF32, {}, 0})), Contains("its element count overflows"));
  CHECK_THAT(read_error(with_tensor({"rope_freqs.weight", {64}, kGgmlF16, std::string(128, '\0'), std::nullopt})),
             Contains("tensor 'rope_freqs.weight' (info at byte") &&
                 Contains("is F16; only F32 RoPE factor tensors can be read"));
  CHECK_THAT(
      read_error(with_tensor({"rope_freqs.weight", {1u << 17}, kGgmlF32, std::string(1u << 19, '\0'), std::nullopt})),
      Contains("a RoPE factor tensor has at most 65536"));

  GgufWriter twice = minimal_llama();
  twice.tensor(small_weight("w")).tensor(small_weight("w"));
  CHECK_THAT(read_error(twice.bytes()), Contains("duplicate tensor 'w' at byte"));
}

TEST_CASE("gguf: every truncation point is an error, never a crash", "[gguf][hostile]") {
  const std::string bytes = llama31_fixture().bytes();
  REQUIRE(read_error(bytes) == "(no error)");
  std::vector<std::pair<std::size_t, std::string>> unexpected;
  for (std::size_t length = 0; length < bytes.size(); ++length) {
    const std::string message = read_error(bytes.substr(0, length));
    const bool explained = message.find("file ends inside") != std::string::npos ||
                           message.find("too short") != std::string::npos ||
                           message.find("bytes left in the file") != std::string::npos ||
                           message.find("past the end of the file") != std::string::npos ||
                           message.find("beyond the end of the file") != std::string::npos ||
                           message.find("need at least") != std::string::npos;
    if (!explained) unexpected.emplace_back(length, message);
  }
  INFO("first unexplained prefix: " << (unexpected.empty() ? ""
                                                           : std::to_string(unexpected.front().first) + " " +
                                                                 unexpected.front().second));
  CHECK(unexpected.empty());
  CHECK_THAT(read_error(bytes.substr(0, 30)), Contains("need at least"));
  CHECK_THAT(read_error(bytes.substr(0, bytes.size() - 1)),
             Contains("tensor 'output_norm.weight'") && Contains("run past the end of the file"));

  const std::string vocab = vocabulary_fixture(20000).bytes();
  CHECK_THAT(read_error(vocab.substr(0, 200000)), Contains("a string in array 'tokenizer.ggml.tokens' at byte"));
  for (std::size_t length = 0; length < vocab.size(); length += vocab.size() / 97 + 1)
    CHECK_THROWS_AS(read_gguf_bytes("vocab.gguf", vocab.substr(0, length)), InputError);
}

TEST_CASE("gguf: a 10 GB sparse file is read from its header alone", "[gguf][sparse]") {
  TempDir dir;
  const std::string path = dir.file("sparse.gguf");
  GgufWriter w = llama31_fixture();
  // 5 Gi F16 elements (10 GiB) of weights lie in the hole after the header.
  w.tensor({"blk.0.ffn_up.weight", {65536, 81920}, ropelens::test::kGgmlF16, std::string(32, '\0'), std::nullopt});
  w.write(path);
  const std::uint64_t size = (std::uint64_t{10} << 30) + 4096;
  REQUIRE(::truncate(path.c_str(), static_cast<off_t>(size)) == 0);
  REQUIRE(std::filesystem::file_size(path) == size);

  const GgufFile file = read_gguf(path);
  CHECK(file.file_size == size);
  CHECK(file.tensor_count == 3);
  CHECK(file.rope_tensors.at("rope_freqs.weight").size() == 64);
  CHECK(ropelens::model_from_gguf(file).setups.at(0).type == ropelens::RopeType::llama3);
}

TEST_CASE("gguf: directories and missing files are input errors", "[gguf]") {
  TempDir dir;
  CHECK_THROWS_WITH(read_gguf(dir.file("")), Contains("is a directory"));
  CHECK_THROWS_WITH(read_gguf(dir.file("absent.gguf")), Contains("absent.gguf: cannot read"));
  CHECK_FALSE(ropelens::looks_like_gguf(dir.file("absent.gguf")));
  CHECK(ropelens::looks_like_gguf_bytes("GGUF\x03"));
  CHECK_FALSE(ropelens::looks_like_gguf_bytes("{\"model_type\": \"llama\"}"));
}

// Rewrites the fuzz seed corpus (testdata/fuzz/gguf): ropelens_tests "[.write-fuzz-seeds]"
TEST_CASE("gguf: write the fuzz seed corpus", "[.write-fuzz-seeds]") {
  const std::string dir = std::string(ROPELENS_SOURCE_DIR) + "/testdata/fuzz/gguf/";
  std::filesystem::create_directories(dir);
  GgufWriter gemma3 = llama_like("gemma3", 131072, 12, 2560, 8);
  gemma3.u32("gemma3.attention.key_length", 256)
      .u32("gemma3.attention.sliding_window", 1024)
      .f32("gemma3.rope.freq_base", 1000000.0f)
      .str("gemma3.rope.scaling.type", "linear")
      .f32("gemma3.rope.scaling.factor", 8.0f);
  GgufWriter vl = llama_like("qwen2vl", 128000, 4, 3584, 28);
  vl.i32_array("qwen2vl.rope.dimension_sections", {16, 24, 24, 0}).f32("qwen2vl.rope.freq_base", 1000000.0f);
  GgufWriter bloom = llama_like("bloom", 2048, 2, 1024, 16);
  bloom.f32("bloom.attention.max_alibi_bias", 8.0f);
  const std::vector<std::pair<std::string, GgufWriter>> seeds = {
      {"minimal-llama", minimal_llama()},
      {"llama31-rope-freqs", llama31_fixture()},
      {"phi3-longrope", phi3_fixture()},
      {"qwen2-yarn", qwen_yarn_fixture()},
      {"deepseek2-yarn", deepseek2_fixture()},
      {"gemma3-sliding", gemma3},
      {"qwen2vl-mrope", vl},
      {"bloom-alibi", bloom},
      {"small-vocab", vocabulary_fixture(60)},
  };
  for (const auto& [name, writer] : seeds) {
    const std::string bytes = writer.bytes();
    REQUIRE(bytes.size() < 4096);
    writer.write(dir + name + ".gguf");
  }
}

// Rewrites the GGUF rule case files (testdata/rules/GGUF00x/*/model.gguf): ropelens_tests "[.write-rule-cases]"
TEST_CASE("gguf: write the rule case files", "[.write-rule-cases]") {
  const std::string root = std::string(ROPELENS_SOURCE_DIR) + "/testdata/rules/";
  GgufWriter unscaled_claim = llama_like("qwen2", 131072, 2, 1024, 8);
  unscaled_claim.str("qwen2.rope.scaling.type", "none").u32("qwen2.rope.scaling.original_context_length", 32768);
  GgufWriter short_freqs = minimal_llama();
  short_freqs.f32_tensor("rope_freqs.weight", std::vector<float>(32, 2.0f));
  GgufWriter original_too_long = minimal_llama();
  original_too_long.u32("llama.rope.scaling.original_context_length", 8192);
  std::vector<float> step(64, 1.0f);
  std::fill(step.begin() + 40, step.end(), 8.0f);
  GgufWriter hard_step = llama_like("llama", 131072, 32, 4096, 32);
  hard_step.u32("llama.rope.dimension_count", 128)
      .f32("llama.rope.freq_base", 500000.0f)
      .f32_tensor("rope_freqs.weight", step);
  const std::vector<std::pair<std::string, GgufWriter>> cases = {
      {"GGUF001/bad-context-beyond-original-without-scaling", unscaled_claim},
      {"GGUF001/ok-llama31-rope-freqs", llama31_fixture()},
      {"GGUF002/bad-rope-freqs-too-short", short_freqs},
      {"GGUF002/ok-phi3-factor-tensors", phi3_fixture()},
      {"GGUF003/bad-original-longer-than-context", original_too_long},
      {"GGUF003/ok-deepseek2-factor-times-original", deepseek2_fixture()},
      {"GGUF004/bad-rope-freqs-hard-step", hard_step},
      {"GGUF004/ok-llama31-converter-rope-freqs", llama31_fixture()},
  };
  for (const auto& [name, writer] : cases) {
    std::filesystem::create_directories(root + name);
    writer.write(root + name + "/model.gguf");
  }
  // The conversion rules: a GGUF beside the config.json it was converted from.
  auto qwen3 = nlohmann::json::parse(ropelens::test::read_file(root + "../configs/qwen/qwen3-8b.json"));
  qwen3["rope_scaling"] = {{"rope_type", "yarn"}, {"factor", 4.0}, {"original_max_position_embeddings", 32768}};
  const std::string smollm3 = ropelens::test::read_file(root + "../configs/smollm/smollm3-3b.json");
  auto smollm3_gguf = [](const std::string& arch) {
    GgufWriter w = llama_like(arch, 65536, 36, 2048, 16);
    w.u32(arch + ".attention.head_count_kv", 4).f32(arch + ".rope.freq_base", 5000000.0f);
    return w;
  };
  const std::vector<std::tuple<std::string, std::string, GgufWriter>> conversions = {
      {"GGUF005/bad-qwen3-yarn4-without-scaling-keys", qwen3.dump(2) + "\n",
       ropelens::test::qwen3_yarn4_fixture(false)},
      {"GGUF005/ok-qwen3-yarn4-as-converted", qwen3.dump(2) + "\n", ropelens::test::qwen3_yarn4_fixture()},
      {"GGUF006/bad-freq-base-10000-under-1e6", qwen3.dump(2) + "\n",
       ropelens::test::qwen3_yarn4_fixture(true, 10000.0f)},
      {"GGUF006/ok-qwen3-yarn4-as-converted", qwen3.dump(2) + "\n", ropelens::test::qwen3_yarn4_fixture()},
      {"GGUF007/bad-context-131072-under-40960", qwen3.dump(2) + "\n",
       ropelens::test::qwen3_yarn4_fixture(true, 1000000.0f, 131072)},
      {"GGUF007/ok-qwen3-yarn4-as-converted", qwen3.dump(2) + "\n", ropelens::test::qwen3_yarn4_fixture()},
      {"GGUF008/bad-smollm3-converted-as-llama", smollm3, smollm3_gguf("llama")},
      {"GGUF008/ok-smollm3-every-fourth-layer-nope", smollm3, smollm3_gguf("smollm3")},
  };
  for (const auto& [name, config, writer] : conversions) {
    std::filesystem::create_directories(root + name);
    ropelens::test::write_file(root + name + "/config.json", config);
    writer.write(root + name + "/model.gguf");
  }
}

namespace {

// llama31_fixture with two block-quantized weights and a short vocabulary.
GgufWriter quantized_fixture() {
  GgufWriter w = llama31_fixture();
  w.str("tokenizer.ggml.model", "gpt2")
      .string_array("tokenizer.ggml.tokens", {"a", "b", "c", "d", "e"})
      .tensor({"blk.0.attn_q.weight", {256, 2}, ropelens::test::kGgmlQ4_K, std::string(288, '\x02'), std::nullopt})
      .tensor({"output.weight", {256}, ropelens::test::kGgmlQ6_K, std::string(210, '\x03'), std::nullopt});
  return w;
}

}  // namespace

TEST_CASE("gguf metadata: what gguf-parser-go shows, from the header", "[gguf][metadata]") {
  const GgufFile file = read_gguf_bytes("quantized.gguf", quantized_fixture().bytes());
  const ropelens::GgufMetadata meta = ropelens::gguf_metadata(file);
  CHECK(meta.architecture == "llama");
  CHECK(meta.name == "fixture llama");
  CHECK(meta.file_type == 15);
  CHECK(meta.quantization == "Q4_K_M");
  CHECK(meta.tensor_count == 4);
  CHECK(meta.parameters == 64 + 32 + 512 + 256);                // rope_freqs, token_embd, Q4_K, Q6_K elements
  CHECK(meta.tensor_bytes == 64 * 4 + 32 * 2 + 2 * 144 + 210);  // F32, F16, two Q4_K blocks, one Q6_K block
  CHECK(meta.size_bytes == 256 + 64 + 288 + 224);               // the data section, the last tensor padded to 32
  CHECK(meta.bits_per_weight == Approx(832.0 * 8 / 864));
  CHECK(meta.context_length == 131072);
  CHECK(meta.embedding_length == 4096);
  CHECK(meta.block_count == 32);
  CHECK(meta.head_count == 32);
  CHECK(meta.head_count_kv == 8);
  CHECK(meta.tokenizer_model == "gpt2");
  CHECK(meta.vocabulary_size == 128256);
  CHECK(meta.vocabulary_from == "llama.vocab_size");

  // Without vocab_size the vocabulary is the length of the token list, counted without keeping the strings.
  const ropelens::GgufMetadata counted =
      ropelens::gguf_metadata(read_gguf_bytes("vocab.gguf", vocabulary_fixture(150000).bytes()));
  CHECK(counted.vocabulary_size == 150000);
  CHECK(counted.vocabulary_from == "tokenizer.ggml.tokens");
  CHECK(counted.quantization.empty());  // no general.file_type
}

TEST_CASE("gguf metadata: llama.cpp's file type names and ggml block sizes", "[gguf][metadata]") {
  CHECK(ropelens::llama_ftype_name(15) == "Q4_K_M");
  CHECK(ropelens::llama_ftype_name(32) == "BF16");
  CHECK(ropelens::llama_ftype_name(1024 | 7) == "Q8_0 (guessed)");
  CHECK(ropelens::llama_ftype_name(99) == "ftype 99");
  CHECK(ropelens::ggml_tensor_bytes(8, 64) == 68);   // Q8_0: 34 bytes per 32
  CHECK(ropelens::ggml_tensor_bytes(39, 64) == 34);  // MXFP4: 17 bytes per 32
  CHECK_FALSE(ropelens::ggml_tensor_bytes(43, 64));  // beyond GGML_TYPE_COUNT
  CHECK(ropelens::ggml_type_name(23) == "IQ4_XS");
}

TEST_CASE("gguf: the KV-cache shape, and the weights from the tensor sizes", "[gguf][kv]") {
  const Model model = model_of(quantized_fixture());
  CHECK(model.kv.num_kv_heads->value == 8);
  CHECK(model.kv.head_dim->value == 128);  // embedding_length 4096 / head_count 32
  CHECK(model.kv.dtype->value == "f16");   // llama.cpp's default cache type
  CHECK(model.weights_bytes->value == 818);
  const auto kv = ropelens::kv_cache_at(model, {131072, std::nullopt});
  CHECK(kv.cache.total_bytes == 17'179'869'184ULL);
}

TEST_CASE("gguf: layers with no key/value heads are recurrent layers without attention", "[gguf][hybrid]") {
  GgufWriter w = llama_like("jamba", 4096, 4, 512, 4);
  w.i32_array("jamba.attention.head_count_kv", {0, 0, 2, 0});
  const Model model = model_of(w);
  CHECK(model.attention_layers() == std::vector<int>{2});
  REQUIRE(model.setups.size() == 1);
  CHECK(model.setups[0].layers == std::vector<int>{2});
  CHECK(model.layers[0].setup == -1);
  CHECK(model.layers[2].setup == 0);
  CHECK(model.hybrid_schedule_from->pointer == "gguf:jamba.attention.head_count_kv");
  CHECK(model.schedule_summary() == "4 layers: 3 recurrent (no RoPE), 1 RoPE global");
  CHECK(ropelens::kv_cache_at(model, {1024, std::nullopt}).cache.total_bytes == 1024ULL * 2 * 128 * 2 * 2);
}
