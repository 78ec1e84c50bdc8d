#include <fmt/format.h>

#include "../support.hpp"
#include "ropelens/analysis/analysis.hpp"

namespace ropelens::rules {
namespace cfg007 {

static std::string readers(const std::vector<RopeType>& types) {
  std::string text;
  for (auto type : types) text += (text.empty() ? "" : ", ") + std::string(to_string(type));
  return text;
}

// A spelling close to the key among the keys its dict's method reads, else among all RoPE keys.
static std::optional<std::string_view> likely_spelling(const Context& cx, const std::string& pointer,
                                                       const std::string& key) {
  const int reach = key.size() > 8 ? 3 : 2;
  std::optional<std::string_view> guess;
  for (const auto& setup : cx.model.setups)
    if (!setup.pointer.empty() && pointer.rfind(setup.pointer + "/", 0) == 0)
      guess = closest_spelling(key, rope_keys_read_by(setup.type), reach);
  if (!guess) guess = closest_spelling(key, all_rope_keys(), reach);
  return guess;
}

static void check(const Context& cx, Sink& out) {
  for_each_issue<UnknownRopeKey>(cx.model, [&](const std::string& pointer, const UnknownRopeKey& unknown) {
    const std::string& key = unknown.key;
    const std::string message =
        fmt::format("key '{}' is not used by rope type '{}'", key, to_string(unknown.rope_type));
    const auto owners = rope_types_reading(key);
    if (!owners.empty()) {
      out.report(pointer, fmt::format("{} (read by {} only)", message, readers(owners)))
          .help("remove the key, or set rope_type to the method that reads it")
          .fact("key", key);
    } else if (auto guess = likely_spelling(cx, pointer, key)) {
      out.report(pointer, fmt::format("{}; did you mean '{}'?", message, *guess))
          .help(fmt::format("rename '{}' to '{}'", key, *guess))
          .fact("key", key)
          .fact("suggestion", std::string(*guess));
    } else {
      out.report(pointer, message).help("remove the key: no RoPE method reads it").fact("key", key);
    }
  });
}

}  // namespace cfg007

extern const Rule CFG007{{"CFG007", "unknown-rope-key", Severity::warning,
                          "The RoPE dict holds a key its method ignores, often a misspelling"},
                         &cfg007::check};

}  // namespace ropelens::rules
