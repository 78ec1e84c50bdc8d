#include "ropelens/model/units.hpp"

#include <array>
#include <cctype>
#include <charconv>
#include <limits>
#include <span>
#include <stdexcept>

#include <fmt/format.h>

namespace ropelens {
namespace {

struct Unit {
  std::string_view suffix;
  std::int64_t multiplier;
};

// At most this many digits after the point: enough for any size or length people write, and small enough that
// the fraction times the largest unit (10^12) stays exact in 64 bits.
constexpr int kMaxDecimals = 6;

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// "-32.50GiB" read as sign, whole part, fraction digits (trailing zeros dropped) and unit as written.
struct Quantity {
  bool negative = false;
  std::int64_t whole = 0;
  std::string fraction;
  std::string unit;
};

std::size_t digits_from(std::string_view text, std::size_t start) {
  std::size_t end = start;
  while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end]))) ++end;
  return end;
}

// Throws with `example` (what the flag expects) when the text does not start with a number.
Quantity read_quantity(std::string_view text, std::string_view example) {
  Quantity q;
  std::size_t i = 0;
  if (i < text.size() && (text[i] == '-' || text[i] == '+')) q.negative = text[i++] == '-';
  const std::size_t whole_end = digits_from(text, i);
  std::size_t end = whole_end;
  if (end < text.size() && text[end] == '.') {
    end = digits_from(text, end + 1);
    q.fraction = std::string(text.substr(whole_end + 1, end - whole_end - 1));
  }
  if (whole_end == i && q.fraction.empty())
    throw std::invalid_argument(fmt::format("'{}' is not a number: expected {}", text, example));
  if (whole_end > i) {
    auto [last, error] = std::from_chars(text.data() + i, text.data() + whole_end, q.whole);
    if (error == std::errc::result_out_of_range || last != text.data() + whole_end)
      throw std::invalid_argument(fmt::format("'{}' is out of range", text));
  }
  while (!q.fraction.empty() && q.fraction.back() == '0') q.fraction.pop_back();
  if (q.fraction.size() > static_cast<std::size_t>(kMaxDecimals))
    throw std::invalid_argument(fmt::format("'{}' has more than {} decimals", text, kMaxDecimals));
  q.unit = std::string(text.substr(end));
  return q;
}

std::int64_t power_of_ten(std::size_t exponent) {
  std::int64_t value = 1;
  for (std::size_t i = 0; i < exponent; ++i) value *= 10;
  return value;
}

// The quantity in base units: whole part and the remainder of the fraction, in units of 10^-decimals
// (1.1k = 1126 and 4 tenths). Throws when it exceeds 64 bits.
struct Scaled {
  std::int64_t whole = 0;
  std::int64_t remainder = 0;
  std::int64_t denominator = 1;
};

Scaled scaled(const Quantity& q, std::int64_t multiplier, std::string_view text) {
  constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
  std::int64_t fraction = 0;
  std::from_chars(q.fraction.data(), q.fraction.data() + q.fraction.size(), fraction);
  Scaled out;
  out.denominator = power_of_ten(q.fraction.size());
  const std::int64_t fraction_units = fraction * multiplier;  // < 10^6 · 10^12
  if (q.whole > kMax / multiplier || q.whole * multiplier > kMax - fraction_units / out.denominator)
    throw std::invalid_argument(fmt::format("'{}' is out of range", text));
  out.whole = q.whole * multiplier + fraction_units / out.denominator;
  out.remainder = fraction_units % out.denominator;
  return out;
}

const Unit* find_unit(std::span<const Unit> units, const std::string& suffix) {
  const std::string folded = lower(suffix);
  for (const Unit& u : units)
    if (folded == u.suffix) return &u;
  return nullptr;
}

}  // namespace

std::int64_t parse_token_count(std::string_view text, std::int64_t min, std::int64_t max) {
  static constexpr std::array<Unit, 4> kUnits{{{"", 1}, {"k", 1LL << 10}, {"m", 1LL << 20}, {"g", 1LL << 30}}};
  constexpr std::string_view kExample = "a token count such as 131072, 128k or 1.5M";
  const Quantity q = read_quantity(text, kExample);
  const Unit* unit = find_unit(kUnits, q.unit);
  if (unit == nullptr)
    throw std::invalid_argument(fmt::format("'{}': unknown unit '{}': expected {}", text, q.unit, kExample));
  const Scaled tokens = scaled(q, unit->multiplier, text);
  if (tokens.remainder != 0) {
    std::string decimals = fmt::format("{:0{}}", tokens.remainder, q.fraction.size());
    while (decimals.back() == '0') decimals.pop_back();
    throw std::invalid_argument(
        fmt::format("'{}' is {}.{} tokens: a length is a whole number of tokens", text, tokens.whole, decimals));
  }
  const std::int64_t value = q.negative ? -tokens.whole : tokens.whole;
  if (value < min || value > max)
    throw std::invalid_argument(fmt::format("'{}' is out of range: expected {} to {} tokens", text, min, max));
  return value;
}

std::int64_t parse_byte_size(std::string_view text) {
  static constexpr std::array<Unit, 13> kUnits{{{"b", 1},
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
                                                {"gb", 1'000'000'000},
                                                {"tb", 1'000'000'000'000LL}}};
  constexpr std::string_view kExample = "a size above zero such as 80GiB, 32.5GiB or 24GB";
  const Quantity q = read_quantity(text, kExample);
  // A bare number is a mistake more often than a count of bytes (--memory 24): say which unit to write.
  if (q.unit.empty()) throw std::invalid_argument(fmt::format("'{}' has no unit: write {}GiB", text, text));
  const Unit* unit = find_unit(kUnits, q.unit);
  if (unit == nullptr)
    throw std::invalid_argument(
        fmt::format("'{}': unknown unit '{}' (expected B, KiB, MiB, GiB, TiB, KB, MB, GB or TB)", text, q.unit));
  const Scaled bytes = scaled(q, unit->multiplier, text);
  const std::int64_t rounded = bytes.whole + (2 * bytes.remainder >= bytes.denominator ? 1 : 0);
  if (q.negative || rounded <= 0) throw std::invalid_argument(fmt::format("'{}': expected {}", text, kExample));
  return rounded;
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
