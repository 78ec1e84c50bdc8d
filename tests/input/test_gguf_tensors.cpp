// GGUF tensor infos: kept as the file states them (dims fastest-first), summed into the weights' bytes and
// parameters, checked by the checkpoint rules like safetensors headers, and refused when hostile.
#include <catch2/catch.hpp>

#include "gguf_writer.hpp"
#include "support.hpp"
#include "ropelens/check/check.hpp"
#include "ropelens/input/gguf.hpp"
#include "ropelens/input/input.hpp"
#include "ropelens/load/model_loader.hpp"

using Catch::Matchers::Contains;
using ropelens::test::GgufWriter;
using ropelens::test::kGgmlF16;
using ropelens::test::kGgmlQ4_K;
using ropelens::test::TensorSpec;

namespace {

// A two-layer llama: 4 heads of 512 / 4 = 128, 2 key/value heads, so k_proj has 256 rows.
GgufWriter two_layer_llama() {
  GgufWriter w = ropelens::test::llama_like("llama", 4096, 2, 512, 4);
  w.u32("llama.attention.head_count_kv", 2);
  return w;
}

// attn_k of layer `layer` with `rows` output features, stored as GGUF does: {in, out}.
TensorSpec attn_k(int layer, std::uint64_t rows) {
  return {"blk." + std::to_string(layer) + ".attn_k.weight",
          {512, rows},
          kGgmlF16,
          std::string(512 * rows * 2, '\0'),
          std::nullopt};
}

ropelens::LoadedModel loaded(const GgufWriter& writer) {
  return ropelens::load_model_bytes("fixture.gguf", writer.bytes(), {});
}

std::vector<ropelens::Diagnostic> findings(const GgufWriter& writer, const std::string& code) {
  ropelens::CheckOptions options;
  options.selection.select = {code};
  return ropelens::check_model(loaded(writer), options).diagnostics;
}

}  // namespace

TEST_CASE("gguf tensors: the info table is kept with dims fastest-first", "[gguf][tensors]") {
  GgufWriter w = two_layer_llama();
  w.tensor(attn_k(0, 256)).tensor({"output.weight", {256, 3}, kGgmlQ4_K, std::string(3 * 144, '\0'), std::nullopt});
  const ropelens::GgufFile file = ropelens::read_gguf_bytes("fixture.gguf", w.bytes());
  REQUIRE(file.tensors.size() == 2);
  CHECK(file.tensors[0].name == "blk.0.attn_k.weight");
  CHECK(file.tensors[0].dims == std::vector<std::uint64_t>{512, 256});
  CHECK(file.tensors[0].torch_shape() == std::vector<std::uint64_t>{256, 512});
  CHECK(file.tensors[0].ggml_type == kGgmlF16);
  CHECK(file.tensors[0].data_offset == 0);
  CHECK(file.tensors[1].data_offset == 262144);  // 512 × 256 F16 values, already a multiple of 32
  CHECK(file.tensors[1].elements() == 768);
  // F16: 262,144 bytes; Q4_K: 3 blocks of 256 values in 144 bytes.
  CHECK(file.tensor_bytes == 262144 + 3 * 144);
  CHECK(file.tensor_elements == 131072 + 768);
}

TEST_CASE("gguf tensors: the weights' bytes and parameters, and the checkpoint in torch order", "[gguf][tensors]") {
  GgufWriter w = two_layer_llama();
  w.tensor(attn_k(0, 256)).tensor(attn_k(1, 256));
  const ropelens::Model model = loaded(w).model;
  REQUIRE(model.weights_bytes);
  CHECK(model.weights_bytes->value == 2 * 262144);
  REQUIRE(model.weights_parameters);
  CHECK(model.weights_parameters->value == 2 * 131072);
  REQUIRE(model.checkpoint);
  CHECK(model.checkpoint->files == std::vector<std::string>{"fixture.gguf"});
  REQUIRE(model.checkpoint->tensors.size() == 2);
  CHECK(model.checkpoint->tensors[0].shape == std::vector<std::uint64_t>{256, 512});
  CHECK(model.checkpoint->tensors[0].dtype == "F16");
}

TEST_CASE("gguf tensors: CKPT401 fires on an attn_k whose rows are not head_count_kv × head_dim", "[gguf][CKPT401]") {
  GgufWriter bad = two_layer_llama();
  bad.tensor(attn_k(0, 128)).tensor(attn_k(1, 128));
  const auto found = findings(bad, "CKPT401");
  REQUIRE(found.size() == 1);
  CHECK_THAT(found[0].message,
             Contains("blk.0.attn_k.weight is [128, 512] (layers 0–1, alike)") && Contains("its 128 rows are"));
  GgufWriter good = two_layer_llama();
  good.tensor(attn_k(0, 256)).tensor(attn_k(1, 256));
  CHECK(findings(good, "CKPT401").empty());
  CHECK(findings(good, "CKPT402").empty());  // both layers hold tensors
}

TEST_CASE("gguf tensors: CKPT402 and CKPT403 read blk.N and token_embd", "[gguf][CKPT402][CKPT403]") {
  GgufWriter w = two_layer_llama();
  w.u32("llama.vocab_size", 100)
      .tensor(attn_k(0, 256))
      .tensor({"token_embd.weight", {512, 96}, kGgmlF16, std::string(512 * 96 * 2, '\0'), std::nullopt});
  const auto layers = findings(w, "CKPT402");
  REQUIRE(layers.size() == 1);
  CHECK_THAT(layers[0].message,
             Contains("the checkpoint holds 1 decoder layer (blk.N.*: 0;") && Contains("layers 1 have no weights"));
  const auto vocab = findings(w, "CKPT403");
  REQUIRE(vocab.size() == 1);
  CHECK_THAT(vocab[0].message, Contains("token_embd.weight is [96, 512]: 96 rows, but vocab_size is 100"));
  CHECK(vocab[0].where.pointer == "gguf:llama.vocab_size");
}

TEST_CASE("gguf tensors: hostile infos are one-line errors naming the file", "[gguf][tensors][hostile]") {
  auto error_of = [](const GgufWriter& w) {
    try {
      ropelens::read_gguf_bytes("hostile.gguf", w.bytes());
    } catch (const ropelens::InputError& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  // A Q4_K tensor of 4 blocks (576 bytes) whose data is one block, padded to 160 bytes, at the end of the file.
  GgufWriter short_data = two_layer_llama();
  short_data.tensor({"blk.0.attn_q.weight", {256, 4}, kGgmlQ4_K, std::string(144, '\0'), std::nullopt});
  CHECK_THAT(error_of(short_data), Contains("hostile.gguf: ") && Contains("tensor 'blk.0.attn_q.weight'") &&
                                       Contains("1024 elements of Q4_K") && Contains("run past the end of the file"));
  // 2^62 F32 elements would overflow a byte count: still past the end, not a wrapped size.
  GgufWriter huge = two_layer_llama();
  huge.tensor({"w", {1ULL << 31, 1ULL << 31}, ropelens::test::kGgmlF32, std::string(32, '\0'), std::nullopt});
  CHECK_THAT(error_of(huge), Contains("run past the end of the file"));
  GgufWriter far = two_layer_llama();
  far.tensor({"w", {8}, kGgmlF16, {}, 1ULL << 40});
  CHECK_THAT(error_of(far), Contains("lies beyond the end of the file"));
  GgufWriter many = two_layer_llama();
  many.tensor_count(1ULL << 40);
  CHECK_THAT(error_of(many), Contains("tensor count 1099511627776 at byte 8 is beyond the limit"));
  for (const std::string& message : {error_of(short_data), error_of(huge), error_of(far), error_of(many)})
    CHECK(message.find('\n') == std::string::npos);
}
