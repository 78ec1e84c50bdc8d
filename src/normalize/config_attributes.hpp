// Internal to the normalizer: the attributes a config may hold at its top level (or in text_config), for telling a
// misspelled key from a vendor's own.
#pragma once

#include <string_view>
#include <vector>

namespace ropelens::normalize_detail {

// Every key ropelens reads, then every other attribute transformers' config classes define; sorted, no repeats.
const std::vector<std::string_view>& known_config_attributes();
bool is_known_config_attribute(std::string_view key);
bool is_read_by_ropelens(std::string_view key);

}  // namespace ropelens::normalize_detail
