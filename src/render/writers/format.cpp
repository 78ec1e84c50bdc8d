#include "render/writers/format.hpp"

#include <cmath>

#include <fmt/format.h>

namespace ropelens::render_detail {

std::string number(double value) { return fmt::format("{}", value); }

std::string fixed(double value, int significant) {
  if (value == 0.0) return "0";
  double magnitude = std::abs(value);
  if (magnitude >= 1e7 || magnitude < 1e-4) return fmt::format("{:.{}e}", value, significant - 1);
  int digits_before = magnitude >= 1.0 ? static_cast<int>(std::floor(std::log10(magnitude))) + 1 : 0;
  int decimals = significant - digits_before;
  if (magnitude < 1.0) decimals = significant - static_cast<int>(std::floor(std::log10(magnitude))) - 1;
  if (decimals < 0) decimals = 0;
  return fmt::format("{:.{}f}", value, decimals);
}

std::string tokens(std::int64_t value) { return fmt::format("{}", value); }

std::string optional_number(const std::optional<double>& value, int significant) {
  return value ? fixed(*value, significant) : "—";
}

}  // namespace ropelens::render_detail
