// Internal to the normalizer: the attributes a config may hold at its top level (or in text_config), for telling a
// misspelled key from a vendor's own.
#pragma once

#include <string_view>

namespace ropelens::normalize_detail {

// A key ropelens reads, or another attribute transformers' config classes define (spelled exactly so).
bool is_known_config_attribute(std::string_view key);
bool is_read_by_ropelens(std::string_view key);

}  // namespace ropelens::normalize_detail
