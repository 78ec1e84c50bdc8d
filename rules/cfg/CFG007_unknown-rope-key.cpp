#include <fmt/format.h>

#include "../support.hpp"
#include "ropelens/analysis.hpp"

namespace ropelens::rules {

// The last reference token of a JSON pointer, unescaped.
static std::string last_key(const std::string& pointer) {
  std::string key = pointer.substr(pointer.rfind('/') + 1), out;
  for (std::size_t i = 0; i < key.size(); ++i)
    if (key[i] == '~' && i + 1 < key.size()) out += key[++i] == '1' ? '/' : '~';
    else out += key[i];
  return out;
}

static std::string readers(const std::vector<RopeType>& types) {
  std::string text;
  for (auto type : types) text += (text.empty() ? "" : ", ") + std::string(to_string(type));
  return text;
}

static void check(const Context& cx, Sink& out) {
  for (const auto& problem : cx.model.problems) {
    if (problem.code != out.meta().code) continue;
    const std::string key = last_key(problem.pointer);
    auto owners = rope_types_reading(key);
    const int reach = key.size() > 8 ? 3 : 2;
    std::optional<std::string_view> guess;
    if (owners.empty()) {
      for (const auto& setup : cx.model.setups)
        if (!setup.pointer.empty() && problem.pointer.rfind(setup.pointer + "/", 0) == 0)
          guess = closest_spelling(key, rope_keys_read_by(setup.type), reach);
      if (!guess) guess = closest_spelling(key, all_rope_keys(), reach);
    }
    if (guess) {
      out.report(problem.pointer, fmt::format("{}; did you mean '{}'?", problem.message, *guess))
          .help(fmt::format("rename '{}' to '{}'", key, *guess))
          .fact("key", key)
          .fact("suggestion", std::string(*guess));
    } else if (!owners.empty()) {
      out.report(problem.pointer, fmt::format("{} (read by {} only)", problem.message, readers(owners)))
          .help("remove the key, or set rope_type to the method that reads it")
          .fact("key", key);
    } else {
      out.report(problem.pointer, problem.message).help("remove the key: no RoPE method reads it").fact("key", key);
    }
  }
}

extern const Rule CFG007{{"CFG007", "unknown-rope-key", Severity::warning,
                          "The RoPE dict holds a key its method ignores, often a misspelling"},
                         &check};

}  // namespace ropelens::rules
