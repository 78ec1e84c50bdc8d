// GGUF headers read as a stream (a git blob through a pipe): the same file, or the same error, as a read in memory,
// at every truncation point and in chunks of any size; git blobs opened with their size, read in part or whole;
// Git LFS pointers parsed as git-lfs writes them.
#include <catch2/catch.hpp>

#include <cstring>
#include <filesystem>

#include "gguf_writer.hpp"
#include "ropelens/input/gguf.hpp"
#include "ropelens/input/git.hpp"
#include "ropelens/input/input.hpp"
#include "support.hpp"

using Catch::Matchers::Contains;
using ropelens::GgufFile;
using ropelens::InputError;
using ropelens::test::GgufWriter;
using ropelens::test::ScratchGit;

namespace {

// What a read gives: the error, or the file's keys, tensors and RoPE tensor values as text.
std::string outcome(const std::function<GgufFile()>& read) {
  try {
    const GgufFile file = read();
    std::string out = std::to_string(file.kv.size()) + " keys, " + std::to_string(file.tensors.size()) + " tensors";
    for (const auto& [name, values] : file.rope_tensors) {
      out += "; " + name;
      for (float v : values) out += " " + std::to_string(v);
    }
    return out;
  } catch (const InputError& e) {
    return e.what();
  }
}

std::string in_memory(const std::string& bytes) {
  return outcome([&] { return ropelens::read_gguf_bytes("blob.gguf", bytes); });
}

// `bytes` read as a stream of `size` bytes (the bytes' own size unless given) in chunks of at most `chunk`.
std::string streamed(const std::string& bytes, std::size_t chunk, std::optional<std::uint64_t> size = {}) {
  const std::size_t first = std::min(bytes.size(), chunk);
  std::size_t at = first;
  const ropelens::ReadSome read_some = [&](char* out, std::size_t count) {
    const std::size_t n = std::min({count, chunk, bytes.size() - at});
    if (n > 0) std::memcpy(out, bytes.data() + at, n);
    at += n;
    return n;
  };
  return outcome([&] {
    return ropelens::read_gguf_stream("blob.gguf", size.value_or(bytes.size()), bytes.substr(0, first), read_some);
  });
}

GgufWriter llama31() { return ropelens::test::llama31_8b_fixture(); }

}  // namespace

TEST_CASE("stream: a GGUF header read as a stream is the file read in memory, in chunks of any size",
          "[gguf][stream]") {
  const std::string bytes = llama31().bytes();
  REQUIRE_THAT(in_memory(bytes), Contains("rope_freqs.weight 1.000000"));
  for (const std::size_t chunk : {std::size_t{1}, std::size_t{3}, std::size_t{64}, std::size_t{1} << 20})
    CHECK(streamed(bytes, chunk) == in_memory(bytes));
}

TEST_CASE("stream: every truncation point gives the error the read in memory gives", "[gguf][stream][hostile]") {
  const std::string bytes = llama31().bytes();
  for (std::size_t length = 0; length < bytes.size(); ++length) {
    const std::string prefix = bytes.substr(0, length);
    INFO("prefix of " << length << " bytes");
    CHECK(streamed(prefix, 7) == in_memory(prefix));
  }
}

TEST_CASE("stream: RoPE tensors lying after the weights, in any order or overlapping, are read as in memory",
          "[gguf][stream]") {
  GgufWriter w = ropelens::test::llama31_8b_fixture(500000.0f, false);
  w.tensor({"blk.0.ffn_up.weight", {1u << 20}, ropelens::test::kGgmlF32, std::string(4u << 20, '\0'), std::nullopt})
      .f32_tensor("rope_factors_short.weight", std::vector<float>(64, 2.0f))
      .f32_tensor("rope_freqs.weight", ropelens::test::llama3_rope_freqs(500000.0, 128, 8.0, 1.0, 4.0, 8192.0));
  const std::string bytes = w.bytes();
  CHECK(streamed(bytes, 4096) == in_memory(bytes));
  // Two factor tensors whose data overlap (a hostile file): the kept history serves the second.
  GgufWriter overlapping = ropelens::test::llama31_8b_fixture(500000.0f, false);
  std::string data;
  for (int i = 0; i < 64; ++i) ropelens::test::put_f32(data, 1.0f + static_cast<float>(i));
  overlapping.tensor({"rope_freqs.weight", {64}, ropelens::test::kGgmlF32, data, std::nullopt})
      .tensor({"rope_factors_long.weight", {32}, ropelens::test::kGgmlF32, {}, std::uint64_t{0}});
  const std::string hostile = overlapping.bytes();
  CHECK(streamed(hostile, 5) == in_memory(hostile));
}

TEST_CASE("stream: a stream that ends before the size it announced is an error naming the byte",
          "[gguf][stream][hostile]") {
  const std::string bytes = llama31().bytes();
  CHECK_THAT(streamed(bytes.substr(0, 200), 100, bytes.size()),
             Contains("blob.gguf: the stream ended after byte 200, before the " + std::to_string(bytes.size()) +
                      " bytes it announced"));
}

TEST_CASE("git blobs: opened with their size, absent, a folder, read in part or whole", "[git][stream]") {
  ScratchGit repo;
  repo.write("m/config.json", "{}\n");
  repo.write("m/big.bin", std::string(3u << 20, 'x'));
  repo.commit("files");
  CHECK(ropelens::GitBlobStream::open(repo.path(), "HEAD", "m/absent.json") == nullptr);
  CHECK(ropelens::GitBlobStream::open(repo.path(), "HEAD", "absent/config.json") == nullptr);
  CHECK_THROWS_WITH(ropelens::GitBlobStream::open(repo.path(), "HEAD", "m"),
                    Contains("HEAD:m: not a file at that revision (git ls-tree: a tree)"));

  auto config = ropelens::GitBlobStream::open(repo.path(), "HEAD", "m/config.json");
  REQUIRE(config);
  CHECK(config->size() == 3);
  CHECK(config->shown() == "HEAD:m/config.json");
  CHECK(config->read_all(1u << 20) == "{}\n");

  auto big = ropelens::GitBlobStream::open(repo.path(), "HEAD", "m/big.bin");
  REQUIRE(big);
  CHECK(big->size() == 3u << 20);
  CHECK_THROWS_WITH(big->read_all(1u << 20), Contains("HEAD:m/big.bin: 3145728 bytes, larger than 1 MiB"));
  char head[10] = {};
  std::size_t got = 0;
  while (got < sizeof head) got += big->read_some(head + got, sizeof head - got);
  CHECK(std::string(head, sizeof head) == std::string(10, 'x'));
  big.reset();  // read in part: its git is killed and reaped, not waited on to write the rest
  CHECK(ropelens::git_file_at(repo.path(), "HEAD", "m/config.json", 1u << 20) == "{}\n");
  CHECK_THROWS_WITH(ropelens::git_file_at(repo.path(), "HEAD", "m/absent.json", 1u << 20),
                    Contains("HEAD:m/absent.json: git: path 'm/absent.json' does not exist in 'HEAD'"));
}

TEST_CASE("Git LFS pointers: what git-lfs writes, and nothing else", "[git][lfs]") {
  const std::string oid = "4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393";
  const auto pointer =
      ropelens::parse_lfs_pointer("version https://git-lfs.github.com/spec/v1\noid sha256:" + oid + "\nsize 12345\n");
  REQUIRE(pointer);
  CHECK(pointer->oid == oid);
  CHECK(pointer->size == 12345);
  CHECK_FALSE(ropelens::parse_lfs_pointer("GGUF\x03"));
  CHECK_FALSE(ropelens::parse_lfs_pointer("version https://git-lfs.github.com/spec/v1\nsize 1\n"));  // no oid
  CHECK_FALSE(ropelens::parse_lfs_pointer("version https://git-lfs.github.com/spec/v1\noid sha256:" + oid + "\n"));
  CHECK_FALSE(ropelens::parse_lfs_pointer("version https://git-lfs.github.com/spec/v1\noid sha256:XYZ\nsize 1\n"));
  CHECK_FALSE(ropelens::parse_lfs_pointer("version https://git-lfs.github.com/spec/v1\noid sha256:" + oid +
                                          "\nsize 99999999999999999999\n"));
  CHECK_FALSE(ropelens::parse_lfs_pointer("version https://git-lfs.github.com/spec/v1\noid sha256:" + oid +
                                          "\nsize 1\n" + std::string(2000, 'x')));
}
