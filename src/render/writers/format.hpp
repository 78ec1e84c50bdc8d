// Internal to renderers: fixed, deterministic text forms of numbers (index lists: ropelens/model/text.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ropelens/model/text.hpp"

namespace ropelens::render_detail {

std::string number(double value);                  // shortest round-trip form
std::string fixed(double value, int significant);  // e.g. 3 significant digits, no exponent below 1e6
std::string tokens(std::int64_t value);            // 131072
std::string optional_number(const std::optional<double>& value, int significant);

}  // namespace ropelens::render_detail
