// safetensors headers: exact bytes and parameters from the header alone, and every hostile header a one-line error
// that names the file, read without allocating what the header claims.
#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>
#include <string>

#include "ropelens/input/input.hpp"
#include "ropelens/input/safetensors.hpp"
#include "safetensors_writer.hpp"
#include "support.hpp"

namespace fs = std::filesystem;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;
using ropelens::InputError;
using ropelens::read_checkpoint_weights;
using ropelens::read_safetensors_header;
using ropelens::test::SafetensorsSpec;
using ropelens::test::TempDir;
using ropelens::test::write_file;
using ropelens::test::write_raw_safetensors;
using ropelens::test::write_safetensors;

namespace {

std::string header_error(const std::string& path) {
  try {
    read_safetensors_header(path);
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

// The error for a file holding this header and `data_bytes` bytes of data.
std::string error_for(const TempDir& dir, const std::string& header_json, std::uint64_t data_bytes) {
  const std::string path = dir.file("model.safetensors");
  write_raw_safetensors(path, header_json, data_bytes);
  return header_error(path);
}

}  // namespace

TEST_CASE("dtype widths follow safetensors' Dtype", "[safetensors]") {
  using ropelens::safetensors_dtype_bits;
  CHECK(safetensors_dtype_bits("BOOL") == 8);
  CHECK(safetensors_dtype_bits("U8") == 8);
  CHECK(safetensors_dtype_bits("I8") == 8);
  CHECK(safetensors_dtype_bits("F8_E4M3") == 8);
  CHECK(safetensors_dtype_bits("F8_E5M2") == 8);
  CHECK(safetensors_dtype_bits("I16") == 16);
  CHECK(safetensors_dtype_bits("U16") == 16);
  CHECK(safetensors_dtype_bits("F16") == 16);
  CHECK(safetensors_dtype_bits("BF16") == 16);
  CHECK(safetensors_dtype_bits("I32") == 32);
  CHECK(safetensors_dtype_bits("U32") == 32);
  CHECK(safetensors_dtype_bits("F32") == 32);
  CHECK(safetensors_dtype_bits("F64") == 64);
  CHECK(safetensors_dtype_bits("I64") == 64);
  CHECK(safetensors_dtype_bits("U64") == 64);
  CHECK(safetensors_dtype_bits("F4") == 4);
  CHECK_FALSE(safetensors_dtype_bits("bf16"));
  CHECK_FALSE(safetensors_dtype_bits("Q4_K"));
}

TEST_CASE("a single model.safetensors: exact bytes and parameters, tied storage once", "[safetensors]") {
  TempDir dir;
  // 151936 × 1024 BF16 embedding shared by lm_head, an F8 projection with its F32 scale, an I64 buffer.
  write_safetensors(dir.file("model.safetensors"),
                    {{"model.embed_tokens.weight", "BF16", {151936, 1024}, {}, ""},
                     {"lm_head.weight", "BF16", {}, {}, "model.embed_tokens.weight"},
                     {"model.layers.0.mlp.up_proj.weight", "F8_E4M3", {3072, 1024}, {}, ""},
                     {"model.layers.0.mlp.up_proj.weight_scale", "F32", {1}, {}, ""},
                     {"model.position_ids", "I64", {1, 40960}, {}, ""}});
  const auto start = std::chrono::steady_clock::now();
  const auto weights = read_checkpoint_weights(dir.path());
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(1));
  REQUIRE(weights);
  CHECK(weights->files == std::vector<std::string>{dir.file("model.safetensors")});
  CHECK(weights->tensors.size() == 5);
  CHECK(weights->bytes == 151936ull * 1024 * 2 + 3072ull * 1024 + 4 + 40960ull * 8);
  CHECK(weights->parameters == 151936ull * 1024 + 3072ull * 1024 + 1 + 40960);
  CHECK(weights->tensors.front().second.name == "lm_head.weight");
  CHECK(weights->tensors.front().second.shape == std::vector<std::uint64_t>{151936, 1024});
}

TEST_CASE("the shards of an index are each read, and a missing shard falls back", "[safetensors]") {
  TempDir dir;
  write_safetensors(dir.file("model-00001-of-00002.safetensors"), {{"a.weight", "BF16", {4096, 4096}, {}, ""}});
  write_safetensors(dir.file("model-00002-of-00002.safetensors"), {{"b.weight", "F32", {10}, {}, ""}});
  write_file(dir.file("model.safetensors.index.json"),
             R"({"metadata": {"total_size": 1}, "weight_map": {"a.weight": "model-00001-of-00002.safetensors",
                 "b.weight": "model-00002-of-00002.safetensors"}})");
  const auto weights = read_checkpoint_weights(dir.path());
  REQUIRE(weights);
  CHECK(weights->files.size() == 2);
  CHECK(weights->bytes == 4096ull * 4096 * 2 + 40);
  CHECK(weights->parameters == 4096ull * 4096 + 10);

  fs::remove(dir.file("model-00002-of-00002.safetensors"));
  std::string missing;
  CHECK_FALSE(read_checkpoint_weights(dir.path(), &missing));
  CHECK(missing == dir.file("model-00002-of-00002.safetensors"));
  CHECK_THROWS_WITH(read_checkpoint_weights(dir.path()), Contains("names the shard model-00002-of-00002.safetensors"));

  write_file(dir.file("model.safetensors.index.json"), R"({"weight_map": {"a.weight": "../../etc/passwd"}})");
  CHECK_THROWS_WITH(read_checkpoint_weights(dir.path()),
                    Contains("weight_map[\"a.weight\"] is not a file name in the index's folder"));
}

TEST_CASE("hostile safetensors headers are one-line errors naming the file", "[safetensors][bad-input]") {
  TempDir dir;
  const std::string file = dir.file("model.safetensors");
  const std::string one = R"({"w": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]}})";

  SECTION("a length above the 100 MB cap, read without allocating it") {
    write_file(file, std::string("\xff\xff\xff\xff\xff\xff\xff\x7f", 8) + "{}");
    CHECK(header_error(file) == file + ": header length 9223372036854775807 exceeds the 100000000-byte limit");
  }
  SECTION("a length past the end of the file") {
    write_file(file, std::string("\x00\x10\x00\x00\x00\x00\x00\x00", 8) + "{}");
    CHECK(header_error(file) == file + ": header length 4096 runs past the end of the file (10 bytes)");
  }
  SECTION("a file shorter than the length field") {
    write_file(file, "abc");
    CHECK(header_error(file) == file + ": 3 bytes, too short for a safetensors header length");
  }
  SECTION("offsets past the end of the data") {
    CHECK(error_for(dir, one, 4) == file + ": tensor w ends at byte 8 of the data, past its end (4 bytes)");
  }
  SECTION("overlapping ranges") {
    const std::string two = R"({"a": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]},
                                "b": {"dtype": "F32", "shape": [2], "data_offsets": [4, 12]}})";
    CHECK(error_for(dir, two, 12) == file + ": tensor b (bytes 4–12) overlaps tensor a (bytes 0–8)");
  }
  SECTION("a gap, and data no tensor covers") {
    CHECK(error_for(dir, R"({"w": {"dtype": "F32", "shape": [2], "data_offsets": [4, 12]}})", 12) ==
          file + ": tensor w starts at byte 4, leaving bytes 0–4 of the data unused");
    CHECK(error_for(dir, one, 16) == file + ": the tensors cover 8 bytes of data, and the file holds 16");
  }
  SECTION("offsets that disagree with shape × dtype") {
    CHECK(error_for(dir, R"({"w": {"dtype": "BF16", "shape": [2, 3], "data_offsets": [0, 8]}})", 8) ==
          file + ": tensor w: data_offsets [0, 8] hold 8 bytes, but BF16 [2,3] needs 12");
    CHECK(error_for(dir, R"({"w": {"dtype": "F32", "shape": [2], "data_offsets": [8, 0]}})", 8) ==
          file + ": tensor w: data_offsets end 0 before begin 8");
  }
  SECTION("a shape whose byte count overflows") {
    CHECK(error_for(dir, R"({"w": {"dtype": "F64", "shape": [4294967296, 4294967296], "data_offsets": [0, 8]}})", 8) ==
          file + ": tensor w: shape × dtype overflows 64 bits");
  }
  SECTION("deep JSON") {
    CHECK(error_for(dir, R"({"w": {"shape": [[[[[[1]]]]]]}})", 0) ==
          file + ": the header nests deeper than 4 levels at /w/shape/0/0");
  }
  SECTION("an unknown dtype") {
    CHECK(error_for(dir, R"({"w": {"dtype": "Q4_K", "shape": [2], "data_offsets": [0, 8]}})", 8) ==
          file + ": tensor w: unknown dtype \"Q4_K\"");
  }
  SECTION("not an object, not JSON, fields of the wrong type") {
    CHECK(error_for(dir, "[1, 2]", 0) == file + ": the header is not a JSON object");
    CHECK_THAT(error_for(dir, "{\"w\": ", 0), StartsWith(file + ": the header is not JSON (byte "));
    CHECK(error_for(dir, R"({"w": 3})", 0) == file + ": tensor w is not an object");
    CHECK(error_for(dir, R"({"w": {"dtype": "F32", "shape": [-2], "data_offsets": [0, 8]}})", 8) ==
          file + ": tensor w: a shape entry is not a whole number ≥ 0");
    CHECK(error_for(dir, R"({"w": {"dtype": "F32", "shape": [2], "data_offsets": [0]}})", 8) ==
          file + ": tensor w: data_offsets is not [begin, end]");
    CHECK(error_for(dir, R"({"__metadata__": [], "w": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]}})", 8) ==
          file + ": __metadata__ is not an object");
  }
}

TEST_CASE("a small float tensor's values are read, bounded", "[safetensors]") {
  TempDir dir;
  const std::string file = dir.file("model.safetensors");
  write_safetensors(file, {{"rotary_emb.inv_freq", "F32", {3}, {1.0f, 0.1f, 0.01f}, ""},
                           {"big", "F32", {ropelens::kMaxTensorValuesRead + 1}, {}, ""}});
  const auto header = read_safetensors_header(file);
  const auto& inv_freq = *std::find_if(header.tensors.begin(), header.tensors.end(),
                                       [](const auto& t) { return t.name == "rotary_emb.inv_freq"; });
  CHECK(ropelens::read_safetensors_values(header, inv_freq) == std::vector<double>{1.0, double(0.1f), double(0.01f)});
  const auto& big =
      *std::find_if(header.tensors.begin(), header.tensors.end(), [](const auto& t) { return t.name == "big"; });
  CHECK_THROWS_WITH(ropelens::read_safetensors_values(header, big), Contains("more than the 65536 read"));
}
