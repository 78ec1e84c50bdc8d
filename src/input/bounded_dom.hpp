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

inline const std::string kDeepValueMarker = std::string("\0nested too deep", 16);

}  // namespace ropelens::input_detail
