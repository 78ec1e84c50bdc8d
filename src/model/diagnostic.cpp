#include "ropelens/diagnostic.hpp"

#include <fmt/format.h>

namespace ropelens {

std::string_view to_string(Severity severity) {
  switch (severity) {
    case Severity::error: return "error";
    case Severity::warning: return "warning";
    case Severity::info: return "info";
  }
  return "info";
}

std::optional<Severity> parse_severity(std::string_view name) {
  if (name == "error") return Severity::error;
  if (name == "warning") return Severity::warning;
  if (name == "info") return Severity::info;
  return std::nullopt;
}

namespace {

// Facts with every floating-point number rounded to 9 significant digits, the rest as it is.
nlohmann::json rounded(const nlohmann::json& value) {
  if (value.is_number_float()) return fmt::format("{:.9g}", value.get<double>());
  if (value.is_object()) {
    nlohmann::json out = nlohmann::json::object();
    for (const auto& [key, item] : value.items()) out[key] = rounded(item);
    return out;
  }
  if (value.is_array()) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& item : value) out.push_back(rounded(item));
    return out;
  }
  return value;
}

// 64-bit FNV-1a: small, stable across platforms and releases (std::hash is neither).
std::uint64_t fnv1a(std::string_view bytes, std::uint64_t hash = 0xcbf29ce484222325ULL) {
  for (unsigned char c : bytes) {
    hash ^= c;
    hash *= 0x100000001b3ULL;
  }
  return hash;
}

}  // namespace

std::string finding_fingerprint(const Diagnostic& diagnostic) {
  std::uint64_t hash = fnv1a(diagnostic.code);
  hash = fnv1a(std::string_view("\0", 1), hash);
  hash = fnv1a(rounded(diagnostic.facts).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), hash);
  return fmt::format("{:016x}", hash);
}

}  // namespace ropelens
