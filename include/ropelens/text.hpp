// Text forms shared by rule messages and renderers.
#pragma once

#include <string>
#include <vector>

namespace ropelens {

// Sorted indices as ranges: {0, 1, 2, 4, 6, 7, 8, 9} → "0–2, 4, 6–9".
std::string index_ranges(const std::vector<int>& sorted_indices);

}  // namespace ropelens
