// Lengths and sizes as people write them: "131072", "128k", "1M"; "80GiB", "512MB".
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace ropelens {

inline constexpr std::int64_t kMaxTokenCount = 1'000'000'000'000LL;

// A token count: digits, optionally with k, M or G meaning powers of 1024 as engines and model cards use
// them (128k = 131072). Throws std::invalid_argument: "not an integer" for text that is not a count,
// "out of range" for one outside [min, max].
std::int64_t parse_token_count(std::string_view text, std::int64_t min = 1, std::int64_t max = kMaxTokenCount);

// A byte size: digits with an optional unit: B, KiB/MiB/GiB/TiB (powers of 1024), KB/MB/GB/TB (powers of 1000);
// K/M/G/T alone are powers of 1024. Throws std::invalid_argument.
std::int64_t parse_byte_size(std::string_view text);

// 17179869184 → "16.00 GiB"; below 1 KiB the bytes themselves ("512 B").
std::string format_bytes(std::int64_t bytes);

}  // namespace ropelens
