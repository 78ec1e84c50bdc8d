// Internal to renderers: fixed, deterministic text forms of numbers and index lists.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ropelens::render_detail {

std::string ranges(const std::vector<int>& sorted_indices);  // "0–2, 4, 6–9"
std::string number(double value);                            // shortest round-trip form
std::string fixed(double value, int significant);            // e.g. 3 significant digits, no exponent below 1e6
std::string tokens(std::int64_t value);                      // 131072
std::string optional_number(const std::optional<double>& value, int significant);

}  // namespace ropelens::render_detail
