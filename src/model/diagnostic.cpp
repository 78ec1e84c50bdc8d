#include "ropelens/model/diagnostic.hpp"

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

// 64-bit FNV-1a of the bytes fed to it: small, stable across platforms and releases (std::hash is neither).
class Fnv1a {
 public:
  Fnv1a& operator<<(char byte) {
    hash_ ^= static_cast<unsigned char>(byte);
    hash_ *= 0x100000001b3ULL;
    return *this;
  }
  Fnv1a& operator<<(std::string_view bytes) {
    for (char byte : bytes) *this << byte;
    return *this;
  }
  std::uint64_t value() const { return hash_; }

 private:
  std::uint64_t hash_ = 0xcbf29ce484222325ULL;
};

// A JSON string as dump() prints it: printable ASCII as it is, anything else through nlohmann's escaping.
void hash_string(Fnv1a& hash, const std::string& text) {
  const bool plain = std::all_of(text.begin(), text.end(),
                                 [](unsigned char c) { return c >= 0x20 && c < 0x7f && c != '"' && c != '\\'; });
  if (plain) hash << '"' << text << '"';
  else hash << nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

template <class Integer> void hash_integer(Fnv1a& hash, Integer number) {
  std::array<char, 24> digits{};
  const auto written = std::to_chars(digits.data(), digits.data() + digits.size(), number);
  hash << std::string_view(digits.data(), static_cast<std::size_t>(written.ptr - digits.data()));
}

// Hashes what nlohmann's dump() prints for the facts with every floating-point number replaced by its string at 9
// significant digits, without building that text: every SARIF result and every diff finding needs a fingerprint.
void hash_rounded(Fnv1a& hash, const nlohmann::json& value) {
  using Type = nlohmann::json::value_t;
  switch (value.type()) {
    case Type::object: {
      hash << '{';
      bool first = true;
      for (const auto& [key, item] : value.get_ref<const nlohmann::json::object_t&>()) {
        if (!first) hash << ',';
        first = false;
        hash_string(hash, key);
        hash << ':';
        hash_rounded(hash, item);
      }
      hash << '}';
      return;
    }
    case Type::array: {
      hash << '[';
      bool first = true;
      for (const auto& item : value.get_ref<const nlohmann::json::array_t&>()) {
        if (!first) hash << ',';
        first = false;
        if (item.type() == Type::number_integer)  // get_ptr alone would read an unsigned number as signed
          hash_integer(hash, *item.get_ptr<const nlohmann::json::number_integer_t*>());
        else hash_rounded(hash, item);
      }
      hash << ']';
      return;
    }
    case Type::number_float: {
      fmt::memory_buffer digits;
      fmt::format_to(std::back_inserter(digits), "\"{:.9g}\"", value.get<double>());
      hash << std::string_view(digits.data(), digits.size());
      return;
    }
    case Type::number_integer: hash_integer(hash, value.get<std::int64_t>()); return;
    case Type::number_unsigned: hash_integer(hash, value.get<std::uint64_t>()); return;
    case Type::string: hash_string(hash, value.get_ref<const std::string&>()); return;
    case Type::boolean: hash << (value.get<bool>() ? "true" : "false"); return;
    default: hash << value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);  // null (binary: never)
  }
}

}  // namespace

std::string finding_fingerprint(const Diagnostic& diagnostic) {
  Fnv1a hash;
  hash << diagnostic.code << '\0';
  hash_rounded(hash, diagnostic.facts);
  return fmt::format("{:016x}", hash.value());
}

}  // namespace ropelens
