// libFuzzer target: arbitrary bytes through the JSON reader, the normalizer, the rope math and the audit.
#include <cstddef>
#include <cstdint>
#include <string>

#include "ropelens/audit.hpp"
#include "ropelens/input.hpp"
#include "ropelens/normalize.hpp"
#include "ropelens/table_report.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  try {
    ropelens::Document doc = ropelens::parse_config("fuzz.json", std::move(text));
    ropelens::Model model = ropelens::normalize(doc);
    ropelens::TableRequest request;
    request.target_tokens = 131072;
    request.seq_len = 65536;
    (void)ropelens::build_table_report(model, request);
  } catch (const ropelens::InputError&) {
  }
  return 0;
}
