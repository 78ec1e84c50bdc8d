#include "ropelens/text.hpp"

#include <fmt/format.h>

namespace ropelens {

std::string index_ranges(const std::vector<int>& sorted) {
  std::string text;
  for (std::size_t i = 0; i < sorted.size();) {
    std::size_t j = i;
    while (j + 1 < sorted.size() && sorted[j + 1] == sorted[j] + 1) ++j;
    if (!text.empty()) text += ", ";
    text += j == i ? fmt::format("{}", sorted[i]) : fmt::format("{}–{}", sorted[i], sorted[j]);
    i = j + 1;
  }
  return text;
}

}  // namespace ropelens
