// libFuzzer target: arbitrary bytes through the GGUF reader, the GGUF -> Model mapping and the RoPE tables.
// Only InputError may escape the reader and the mapping; anything else (a crash, a sanitizer report, another
// exception) is a bug. The same bytes read as a stream (a git blob through a pipe: forward only, in chunks the input
// picks) must give the same file or the same error. Seeds: testdata/fuzz/gguf/.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <string_view>

#include "fuzz_support.hpp"
#include "ropelens/input/gguf.hpp"
#include "ropelens/input/input.hpp"
#include "ropelens/normalize/normalize.hpp"
#include "ropelens/rope/rope.hpp"

namespace {

// What a read gives, as comparable text: the error, or the counts and RoPE tensors of the file.
std::string outcome(const std::function<ropelens::GgufFile()>& read) {
  try {
    const ropelens::GgufFile file = read();
    std::string out = std::to_string(file.kv.size()) + " " + std::to_string(file.tensors.size());
    for (const auto& [name, values] : file.rope_tensors) out += " " + name + ":" + std::to_string(values.size());
    return out;
  } catch (const ropelens::InputError& e) {
    return e.what();
  }
}

std::string streamed(std::string_view bytes) {
  const std::size_t chunk = bytes.empty() ? 1 : 1 + static_cast<unsigned char>(bytes.back()) % 97;
  const std::size_t first = std::min<std::size_t>(bytes.size(), chunk);
  std::size_t at = first;
  const ropelens::ReadSome read_some = [&](char* out, std::size_t count) {
    const std::size_t n = std::min({count, chunk, bytes.size() - at});
    if (n > 0) std::memcpy(out, bytes.data() + at, n);
    at += n;
    return n;
  };
  return outcome([&] {
    return ropelens::read_gguf_stream("fuzz.gguf", bytes.size(), std::string(bytes.substr(0, first)), read_some);
  });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const std::string in_memory = outcome([&] { return ropelens::read_gguf_bytes("fuzz.gguf", bytes); });
  ropelens::fuzz::require(streamed(bytes) == in_memory, "a streamed read differs from the read in memory");
  try {
    const ropelens::GgufFile file = ropelens::read_gguf_bytes("fuzz.gguf", bytes);
    const ropelens::Model model = ropelens::model_from_gguf(file);
    for (const auto& setup : model.setups) (void)ropelens::compute_rope_table(setup);
  } catch (const ropelens::InputError&) {
  }
  return 0;
}
