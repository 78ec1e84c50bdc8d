#include "ropelens/diagnostic.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdint>
#include <iterator>

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

// A JSON string as dump() prints it: printable ASCII as it is, anything else through nlohmann's escaping.
void append_string(std::string& out, const std::string& text) {
  const bool plain = std::all_of(text.begin(), text.end(),
                                 [](unsigned char c) { return c >= 0x20 && c < 0x7f && c != '"' && c != '\\'; });
  if (!plain) {
    out += nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    return;
  }
  out += '"';
  out += text;
  out += '"';
}

template <class Integer> void append_integer(std::string& out, Integer number) {
  std::array<char, 24> digits{};
  const auto written = std::to_chars(digits.data(), digits.data() + digits.size(), number);
  out.append(digits.data(), written.ptr);
}

// Appends what nlohmann's dump() prints for the facts with every floating-point number replaced by its string at 9
// significant digits, without building that copy: every SARIF result and every diff finding needs a fingerprint.
void append_rounded(std::string& out, const nlohmann::json& value) {
  using Type = nlohmann::json::value_t;
  switch (value.type()) {
    case Type::object: {
      out += '{';
      const char* separator = "";
      for (const auto& [key, item] : value.get_ref<const nlohmann::json::object_t&>()) {
        out += separator;
        separator = ",";
        append_string(out, key);
        out += ':';
        append_rounded(out, item);
      }
      out += '}';
      return;
    }
    case Type::array: {
      out += '[';
      const char* separator = "";
      for (const auto& item : value.get_ref<const nlohmann::json::array_t&>()) {
        out += separator;
        separator = ",";
        if (item.type() == Type::number_integer)  // get_ptr alone would read an unsigned number as signed
          append_integer(out, *item.get_ptr<const nlohmann::json::number_integer_t*>());
        else append_rounded(out, item);
      }
      out += ']';
      return;
    }
    case Type::number_float: fmt::format_to(std::back_inserter(out), "\"{:.9g}\"", value.get<double>()); return;
    case Type::number_integer: append_integer(out, value.get<std::int64_t>()); return;
    case Type::number_unsigned: append_integer(out, value.get<std::uint64_t>()); return;
    case Type::string: append_string(out, value.get_ref<const std::string&>()); return;
    case Type::boolean: out += value.get<bool>() ? "true" : "false"; return;
    default: out += value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);  // null (binary: never)
  }
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
  std::string facts;
  append_rounded(facts, diagnostic.facts);
  hash = fnv1a(facts, hash);
  return fmt::format("{:016x}", hash);
}

}  // namespace ropelens
