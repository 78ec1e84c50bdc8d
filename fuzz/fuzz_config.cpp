// libFuzzer target: arbitrary bytes through the JSON reader (whose quick reader must agree with nlohmann's parser),
// the normalizer, the rope math and the audit.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "input/bounded_dom.hpp"

#include "ropelens/audit/audit.hpp"
#include "ropelens/input/input.hpp"
#include "ropelens/normalize/normalize.hpp"
#include "ropelens/report/table_report.hpp"

namespace {

// The quick JSON reader and nlohmann's parser must give the same document, or the same error.
void check_the_parsers_agree(const std::string& text) {
  using namespace ropelens::input_detail;
  const BoundedParse quick = parse_bounded(text, ropelens::kMaxJsonDepth);
  const BoundedParse reference = parse_bounded_by_nlohmann(text, ropelens::kMaxJsonDepth);
  if (quick.syntax_error != reference.syntax_error || quick.error_byte != reference.error_byte ||
      quick.error_message != reference.error_message || quick.cut_pointers != reference.cut_pointers ||
      !identical_values(quick.root, reference.root))
    std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  check_the_parsers_agree(text);
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
