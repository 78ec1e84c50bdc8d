// KV-cache memory at the target: golden figures (issue 14 §2) and what each engine keeps.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "model_support.hpp"
#include "ropelens/engines/kv_cache.hpp"
#include "ropelens/normalize/normalize.hpp"
#include "ropelens/model/text.hpp"

using ropelens::KvCacheReport;
using ropelens::KvCacheView;
using ropelens::KvDtype;
using ropelens::Model;
using ropelens::test::load;

namespace {

constexpr std::int64_t k128k = 131072;

KvCacheReport kv_of(const std::string& config, std::int64_t tokens, std::optional<KvDtype> dtype = std::nullopt) {
  return ropelens::kv_cache_at(load("testdata/configs/" + config), {tokens, dtype});
}

const KvCacheView& engine(const KvCacheReport& report, const std::string& name) {
  for (const auto& view : report.engines)
    if (view.name() == name) return view;
  FAIL("no engine " << name);
  return report.cache;
}

// Tokens each group keeps, in order: {name, layers, tokens}.
std::vector<std::tuple<std::string, std::size_t, std::int64_t>> kept(const KvCacheView& view) {
  std::vector<std::tuple<std::string, std::size_t, std::int64_t>> out;
  for (const auto& g : view.groups) out.emplace_back(g.name, g.layers.size(), g.tokens_held);
  return out;
}

}  // namespace

TEST_CASE("Llama-3.1-8B at 131072 tokens: 16 GiB in 16-bit, as llama.cpp's load log reports", "[kv]") {
  const auto bf16 = kv_of("llama/llama-3.1-8b-instruct-bnb8bit-finetune.json", k128k, KvDtype::bf16);
  CHECK(bf16.cache.total_bytes == 17'179'869'184ULL);  // 32 layers × 8 heads × 128 × (K + V) × 2 bytes × 131072
  REQUIRE(bf16.cache.groups.size() == 1);
  CHECK(bf16.cache.groups[0].row.k == 1024);
  CHECK(bf16.cache.groups[0].row.v == 1024);
  for (const auto& view : bf16.engines) {
    INFO(view.name());
    CHECK(view.total_bytes == 17'179'869'184ULL);  // no window, no latent: every engine agrees
  }
  // The config says torch_dtype float16: the default dtype follows it, at the same size.
  const auto by_default = kv_of("llama/llama-3.1-8b-instruct-bnb8bit-finetune.json", k128k);
  CHECK(by_default.dtype == KvDtype::f16);
  CHECK(by_default.dtype_from.pointer == "/torch_dtype");
  CHECK(by_default.cache.total_bytes == 17'179'869'184ULL);
  // llama.cpp's quantized cache types: 34 and 18 bytes per block of 32 values.
  CHECK(kv_of("llama/llama-3.1-8b-instruct-bnb8bit-finetune.json", k128k, KvDtype::q8_0).cache.total_bytes ==
        9'126'805'504ULL);
  CHECK(kv_of("llama/llama-3.1-8b-instruct-bnb8bit-finetune.json", k128k, KvDtype::q4_0).cache.total_bytes ==
        4'831'838'208ULL);
  CHECK(kv_of("llama/llama-3.1-8b-instruct-bnb8bit-finetune.json", k128k, KvDtype::fp8).cache.total_bytes ==
        8'589'934'592ULL);
}

TEST_CASE("Gemma 3 at 131072 tokens: sliding layers hold their window, global layers every token", "[kv]") {
  const auto kv = kv_of("gemma/medgemma-27b-it.json", k128k);
  using Row = std::tuple<std::string, std::size_t, std::int64_t>;
  CHECK(kept(kv.cache) == std::vector<Row>{{"sliding_attention", 52, 1024}, {"full_attention", 10, k128k}});
  // 16 heads × 128 × (K + V) × 2 bytes: 52 × 1024 + 10 × 131072 tokens.
  CHECK(kv.cache.total_bytes == 8192ULL * (52 * 1024 + 10 * 131072));
  CHECK(kept(engine(kv, "transformers")) ==
        std::vector<Row>{{"sliding_attention", 52, 1023}, {"full_attention", 10, k128k}});
  // vLLM: (cdiv(min(1023 + 8192, N), 16) + 1) blocks of 16; llama.cpp: pad(1024 + 512, 256); SGLang: 0.8 of the pool.
  CHECK(kept(engine(kv, "vllm")) == std::vector<Row>{{"sliding_attention", 52, 9232}, {"full_attention", 10, k128k}});
  CHECK(kept(engine(kv, "llama.cpp")) ==
        std::vector<Row>{{"sliding_attention", 52, 1536}, {"full_attention", 10, k128k}});
  CHECK(kept(engine(kv, "sglang")) ==
        std::vector<Row>{{"sliding_attention", 52, 104857}, {"full_attention", 10, k128k}});
}

TEST_CASE("Gemma 4: full-attention layers have their own key/value heads and width", "[kv]") {
  const auto kv = kv_of("gemma/gemma-4-31b-it.json", k128k);
  REQUIRE(kv.cache.groups.size() == 2);
  CHECK(kv.cache.groups[0].row.k == 16 * 256);  // sliding: num_key_value_heads × head_dim
  CHECK(kv.cache.groups[1].row.k == 4 * 512);   // full: num_global_key_value_heads × global_head_dim
  CHECK(kv.cache.total_bytes == 11'576'279'040ULL);
}

TEST_CASE("DeepSeek-V3 at 131072 tokens: the MLA latent, 61 × (512 + 64) × 2 bytes × 131072", "[kv]") {
  const auto kv = kv_of("deepseek/deepseek-v3.json", k128k);
  CHECK(kv.cache.total_bytes == 61ULL * (512 + 64) * 2 * 131072);
  CHECK(kv.cache.total_bytes == 9'210'691'584ULL);
  CHECK(engine(kv, "vllm").total_bytes == 9'210'691'584ULL);
  CHECK(engine(kv, "sglang").total_bytes == 9'210'691'584ULL);
  CHECK(engine(kv, "llama.cpp").total_bytes == 9'210'691'584ULL);
  // transformers caches full K (128 heads × (128 + 64)) and V (128 heads × 128) per layer.
  CHECK(engine(kv, "transformers").groups.at(0).row.k == 128 * 192);
  CHECK(engine(kv, "transformers").groups.at(0).row.v == 128 * 128);
  CHECK(engine(kv, "transformers").total_bytes == 654'982'512'640ULL);
}

TEST_CASE("Llama 4 chunked layers: vLLM turns its hybrid manager off and keeps every token", "[kv]") {
  const auto kv = kv_of("synthetic/llama4-nope-chunked.json", k128k);
  using Row = std::tuple<std::string, std::size_t, std::int64_t>;
  CHECK(kept(kv.cache) == std::vector<Row>{{"all", 6, 8192}, {"nope", 2, k128k}});
  CHECK(kept(engine(kv, "vllm")) == std::vector<Row>{{"all", 6, k128k}, {"nope", 2, k128k}});
  CHECK(kept(engine(kv, "transformers")) == std::vector<Row>{{"all", 6, 8191}, {"nope", 2, k128k}});
  CHECK(kept(engine(kv, "sglang")) == std::vector<Row>{{"all", 6, 8192}, {"nope", 2, k128k}});
  CHECK(kept(engine(kv, "llama.cpp")) == std::vector<Row>{{"all", 6, 8704}, {"nope", 2, k128k}});
}

TEST_CASE("hybrid models: only the attention layers keep a cache", "[kv][hybrid]") {
  const auto qwen3_next = kv_of("synthetic/qwen3-next-hybrid.json", k128k);
  CHECK(qwen3_next.cache.total_bytes == 12ULL * 131072 * (2 * 256 * 2) * 2);  // 12 layers, 2 heads of 256
  CHECK(qwen3_next.cache.groups.at(0).name == "linear_attention");
  CHECK(qwen3_next.cache.groups.at(0).layers.size() == 36);
  CHECK(qwen3_next.cache.groups.at(0).bytes == 0);
  const auto jamba = kv_of("synthetic/jamba-hybrid.json", k128k);
  CHECK(jamba.cache.total_bytes == 4ULL * 131072 * (8 * 128 * 2) * 2);  // 4 NoPE layers, 8 heads of 4096/32
  const auto nemotron = kv_of("synthetic/nemotron-h-hybrid.json", 8192);
  CHECK(nemotron.cache.total_bytes == 4ULL * 8192 * (8 * 128 * 2) * 2);
}

TEST_CASE("layers that share KV (num_kv_shared_layers) count once", "[kv]") {
  nlohmann::json config = {{"model_type", "gemma3n_text"},
                           {"num_hidden_layers", 6},
                           {"num_attention_heads", 8},
                           {"num_key_value_heads", 2},
                           {"head_dim", 256},
                           {"sliding_window", 512},
                           {"num_kv_shared_layers", 2},
                           {"torch_dtype", "bfloat16"},
                           {"layer_types",
                            {"sliding_attention", "full_attention", "sliding_attention", "full_attention",
                             "sliding_attention", "full_attention"}}};
  const Model model = ropelens::normalize_json(config, "gemma3n.json");
  const auto kv = ropelens::kv_cache_at(model, {4096, std::nullopt});
  CHECK(kv.cache.total_bytes == 2048ULL * (2 * 512 + 2 * 4096));  // layers 0–3 hold; 2 heads × 256 × 2 × 2 bytes
  REQUIRE(kv.cache.groups.size() == 4);
  CHECK(kv.cache.groups[2].holds == "reuses the KV of layer 2");
  CHECK(kv.cache.groups[3].holds == "reuses the KV of layer 3");
}

TEST_CASE("no KV figure without head counts, and none for encoders", "[kv]") {
  const auto bert = kv_of("bert/bert-base-uncased.json", 512);
  CHECK(bert.not_computed == "model_type 'bert' is an encoder: it keeps no KV cache");
  const Model bare = ropelens::normalize_json({{"model_type", "llama"}, {"num_hidden_layers", 2}}, "bare.json");
  CHECK(ropelens::kv_cache_at(bare, {1024, std::nullopt}).not_computed ==
        "the config gives no num_key_value_heads or num_attention_heads");
}

TEST_CASE("KV dtypes: names, block sizes and the config's default", "[kv]") {
  CHECK(ropelens::parse_kv_dtype("q8_0") == KvDtype::q8_0);
  CHECK_FALSE(ropelens::parse_kv_dtype("int4"));
  CHECK(ropelens::kv_bytes(KvDtype::q8_0, 576) == 18 * 34);
  CHECK(ropelens::kv_bytes(KvDtype::q4_0, 33) == 2 * 18);  // a partial block is a whole block
  CHECK(ropelens::bytes_per_element(KvDtype::q4_0) == 0.5625);
  const Model unknown = ropelens::normalize_json({{"model_type", "llama"}, {"torch_dtype", "int8"}}, "int8.json");
  CHECK(ropelens::default_kv_dtype(unknown).dtype == KvDtype::bf16);
}

TEST_CASE("byte counts are grouped by thousands", "[text]") {
  CHECK(ropelens::group_thousands(17'179'869'184ULL) == "17,179,869,184");
  CHECK(ropelens::group_thousands(999) == "999");
  CHECK(ropelens::group_thousands(1000) == "1,000");
}
