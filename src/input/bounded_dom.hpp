// Internal: builds a JSON DOM with nlohmann's iterative SAX parser, cutting values nested deeper than a limit.
// A cut value becomes a marker string, so the rest of the config is still read and the cut is reported.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace ropelens::input_detail {

struct BoundedParse {
  nlohmann::json root;
  std::vector<std::string> cut_pointers;  // JSON pointers of values replaced by the marker
  bool syntax_error = false;
  std::size_t error_byte = 0;
  std::string error_message;
};

BoundedParse parse_bounded(const std::string& text, int max_depth);
// The same with nlohmann's parser alone (parse_bounded reads most configs with a faster reader that yields the
// same values, and falls back to this for the rest); kept for the test that compares the two.
BoundedParse parse_bounded_by_nlohmann(const std::string& text, int max_depth);
// The quick reader alone: false when it leaves the text to nlohmann (and then `out` is to be discarded).
bool read_quickly(const std::string& text, int max_depth, BoundedParse& out);
// Equal values of equal types, doubles bit for bit (nlohmann's == takes 1u, 1 and 1.0 for the same number): what
// the two parsers must agree on.
bool identical_values(const nlohmann::json& a, const nlohmann::json& b);

inline const std::string kDeepValueMarker = std::string("\0nested too deep", 16);

}  // namespace ropelens::input_detail
