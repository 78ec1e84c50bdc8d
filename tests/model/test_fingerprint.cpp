// A finding's fingerprint is what baselines and diff match findings by, so it must not move between releases.
#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "ropelens/model/diagnostic.hpp"

using namespace ropelens;
using nlohmann::json;

namespace {

// The definition the fingerprint has had since baselines shipped: FNV-1a of the code, a NUL, and the compact dump
// of the facts with every float replaced by its string at 9 significant digits.
json rounded(const json& value) {
  if (value.is_number_float()) return fmt::format("{:.9g}", value.get<double>());
  if (value.is_object()) {
    json out = json::object();
    for (const auto& [key, item] : value.items()) out[key] = rounded(item);
    return out;
  }
  if (value.is_array()) {
    json out = json::array();
    for (const auto& item : value) out.push_back(rounded(item));
    return out;
  }
  return value;
}

std::string reference_fingerprint(const Diagnostic& d) {
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  const std::string bytes =
      d.code + std::string(1, '\0') + rounded(d.facts).dump(-1, ' ', false, json::error_handler_t::replace);
  for (unsigned char c : bytes) {
    hash ^= c;
    hash *= 0x100000001b3ULL;
  }
  return fmt::format("{:016x}", hash);
}

Diagnostic with_facts(json facts) {
  Diagnostic d;
  d.code = "ROPE101";
  d.facts = std::move(facts);
  return d;
}

}  // namespace

TEST_CASE("a finding's fingerprint is the hash of its code and its facts rounded to 9 digits, as it always was") {
  const json cases[] = {
      json::object(),
      {{"target", 131072}, {"factor", 4.0}, {"theta", 1e6}, {"ratio", 0.1 + 0.2}},
      {{"pairs", {1, 2, 3}}, {"degrees", {359.99999999, -0.5, 1e-300}}, {"empty", json::array()}},
      {{"nested", {{"b", {{"c", true}, {"d", nullptr}}}, {"a", false}}}},
      {{"name", "plain ascii"}, {"quote", "say \"hi\"\\"}, {"tab", "a\tb\n"}, {"control", std::string("\x01", 1)}},
      {{"unicode", "θ = 10⁶"}, {"not utf-8", std::string("\xff\xfe")}, {"del", std::string("\x7f")}},
      {{"big", std::uint64_t{18446744073709551615ULL}}, {"negative", std::int64_t{-9223372036854775807LL - 1}}},
      {{"mixed list", {std::uint64_t{18446744073709551615ULL}, -1, 2, 2.5, "x", nullptr, json::array({1})}}},
      {{"inf", std::numeric_limits<double>::infinity()}, {"nan", std::numeric_limits<double>::quiet_NaN()}},
      {{"keys with \"quotes\"", 1}, {"ключ", 2}},
      {{"list of objects", {{{"engine", "vllm"}, {"value", 2.5}}, {{"engine", "sglang"}, {"value", 3}}}}},
  };
  for (const auto& facts : cases) {
    INFO(facts.dump(-1, ' ', false, json::error_handler_t::replace));
    const Diagnostic d = with_facts(facts);
    CHECK(finding_fingerprint(d) == reference_fingerprint(d));
  }
}

TEST_CASE("a fingerprint ignores digits past the ninth and the wording, and sees every fact") {
  Diagnostic a = with_facts({{"factor", 4.0}, {"target", 131072}});
  Diagnostic b = with_facts({{"factor", 4.0000000001}, {"target", 131072}});
  b.message = "other wording";
  CHECK(finding_fingerprint(a) == finding_fingerprint(b));
  CHECK(finding_fingerprint(a) != finding_fingerprint(with_facts({{"factor", 4.01}, {"target", 131072}})));
  CHECK(finding_fingerprint(a) != finding_fingerprint(with_facts({{"factor", 4.0}, {"target", 131073}})));
  // FNV-1a of "ROPE101\0{\"factor\":\"4\",\"target\":131072}", worked out by hand: a change here breaks every baseline.
  CHECK(finding_fingerprint(a) == "291bb5e84709fbc9");
}
