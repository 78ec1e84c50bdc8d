// libFuzzer target: arbitrary bytes through the GGUF reader, the GGUF -> Model mapping and the RoPE tables.
// Only InputError may escape the reader and the mapping; anything else (a crash, a sanitizer report, another
// exception) is a bug. Seeds: testdata/fuzz/gguf/.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "ropelens/input/gguf.hpp"
#include "ropelens/input/input.hpp"
#include "ropelens/normalize/normalize.hpp"
#include "ropelens/rope/rope.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  try {
    const ropelens::GgufFile file = ropelens::read_gguf_bytes("fuzz.gguf", bytes);
    const ropelens::Model model = ropelens::model_from_gguf(file);
    for (const auto& setup : model.setups) (void)ropelens::compute_rope_table(setup);
  } catch (const ropelens::InputError&) {
  }
  return 0;
}
