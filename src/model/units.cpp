#include "ropelens/model/units.hpp"

#include <array>
#include <cctype>
#include <charconv>
#include <limits>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

namespace ropelens {
namespace {

struct Unit {
  std::string_view suffix;
  std::int64_t multiplier;
};

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Splits "128k" into 128 and "k"; the number must be whole digits.
std::pair<std::int64_t, std::string_view> split_number(std::string_view text, std::string_view what) {
  std::size_t digits = 0;
  while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits]))) ++digits;
  std::int64_t value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + digits, value);
  if (digits == 0 || end != text.data() + digits)
    throw std::invalid_argument(fmt::format("'{}' is not an integer {}", text, what));
  if (error == std::errc::result_out_of_range) throw std::invalid_argument(fmt::format("'{}' is out of range", text));
  return {value, text.substr(digits)};
}

std::int64_t scaled(std::int64_t value, std::int64_t multiplier, std::string_view text) {
  if (value > std::numeric_limits<std::int64_t>::max() / multiplier)
    throw std::invalid_argument(fmt::format("'{}' is out of range", text));
  return value * multiplier;
}

}  // namespace

std::int64_t parse_token_count(std::string_view text, std::int64_t min, std::int64_t max) {
  static constexpr std::array<Unit, 4> kUnits{{{"", 1}, {"k", 1LL << 10}, {"m", 1LL << 20}, {"g", 1LL << 30}}};
  auto [value, suffix] = split_number(text, "(a token count such as 131072, 128k or 1M)");
  const std::string unit = lower(suffix);
  for (const Unit& u : kUnits)
    if (unit == u.suffix) {
      const std::int64_t tokens = scaled(value, u.multiplier, text);
      if (tokens < min || tokens > max)
        throw std::invalid_argument(fmt::format("'{}' is out of range: expected {} to {} tokens", text, min, max));
      return tokens;
    }
  throw std::invalid_argument(fmt::format("'{}' is not an integer (a token count such as 131072, 128k or 1M)", text));
}

std::int64_t parse_byte_size(std::string_view text) {
  static constexpr std::array<Unit, 13> kUnits{{{"", 1},
                                                {"b", 1},
                                                {"k", 1LL << 10},
                                                {"m", 1LL << 20},
                                                {"g", 1LL << 30},
                                                {"t", 1LL << 40},
                                                {"kib", 1LL << 10},
                                                {"mib", 1LL << 20},
                                                {"gib", 1LL << 30},
                                                {"tib", 1LL << 40},
                                                {"kb", 1'000},
                                                {"mb", 1'000'000},
                                                {"gb", 1'000'000'000}}};
  auto [value, suffix] = split_number(text, "(a size such as 80GiB, 512MB or 1073741824)");
  const std::string unit = lower(suffix);
  if (unit == "tb") return scaled(value, 1'000'000'000'000LL, text);
  for (const Unit& u : kUnits)
    if (unit == u.suffix) return scaled(value, u.multiplier, text);
  throw std::invalid_argument(
      fmt::format("'{}': unknown unit '{}' (expected B, KiB, MiB, GiB, TiB, KB, MB, GB or TB)", text, suffix));
}

std::string format_bytes(std::int64_t bytes) {
  static constexpr std::array<std::string_view, 4> kNames{"KiB", "MiB", "GiB", "TiB"};
  if (bytes < 1024) return fmt::format("{} B", bytes);
  double value = static_cast<double>(bytes) / 1024.0;
  std::size_t unit = 0;
  while (value >= 1024.0 && unit + 1 < kNames.size()) {
    value /= 1024.0;
    ++unit;
  }
  return fmt::format("{:.2f} {}", value, kNames[unit]);
}

}  // namespace ropelens
