// Lengths and sizes as people write them: "131072", "128k", "1.5M"; "80GiB", "32.5GiB", "512MB".
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace ropelens {

inline constexpr std::int64_t kMaxTokenCount = 1'000'000'000'000LL;

// A token count: a number, optionally with decimals and k, M or G meaning powers of 1024 as engines and model
// cards use them (128k = 131072, 1.5M = 1572864). Throws std::invalid_argument: "not a number" for text that is
// not one, "unknown unit", "a whole number of tokens" for a count with a fraction left (1.1k), "out of range" for
// one outside [min, max].
std::int64_t parse_token_count(std::string_view text, std::int64_t min = 1, std::int64_t max = kMaxTokenCount);

// A byte size above zero: a number, optionally with decimals (32.5GiB), and a unit: B, KiB/MiB/GiB/TiB (powers of
// 1024), KB/MB/GB/TB (powers of 1000); K/M/G/T alone are powers of 1024. A fraction of a byte rounds to the nearest
// byte. Throws std::invalid_argument for text that is not a size, an unknown unit, zero or a negative size.
std::int64_t parse_byte_size(std::string_view text);

// 17179869184 → "16.00 GiB"; below 1 KiB the bytes themselves ("512 B").
std::string format_bytes(std::int64_t bytes);

}  // namespace ropelens
