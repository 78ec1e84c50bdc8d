#include "ropelens/engines/stack.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "ropelens/engines/versions.hpp"
#include "ropelens/model/text.hpp"

namespace ropelens {

StackEntry parse_stack_entry(std::string_view text, std::string_view where) {
  const auto at = text.find('@');
  const std::string_view name = text.substr(0, at);
  if (const auto runs = runner_engine(name)) {  // `ollama@0.5.12`: llama.cpp as that Ollama release runs it
    if (at != std::string_view::npos && !runner_pin(text))
      throw std::invalid_argument(
          fmt::format("{}: '{}' names no {} release after '@' (expected a release such as "
                      "{}@0.6.7)",
                      where, text, name, name));
    return StackEntry{*runs, std::string(text)};
  }
  std::vector<std::string> names;
  for (Engine engine : all_engines()) names.emplace_back(to_string(engine));
  const auto engine = parse_engine(name);
  if (!engine)
    throw std::invalid_argument(fmt::format("{}: unknown engine '{}'{}; expected {}, each optionally @VERSION", where,
                                            name, did_you_mean(name, names), fmt::join(names, ", ")));
  StackEntry entry{*engine, std::nullopt};
  if (const auto key = version_alias_key(name)) {
    if (at != std::string_view::npos)
      throw std::invalid_argument(
          fmt::format("{}: '{}' names {}@{}, which takes no other version", where, text, to_string(*engine), *key));
    entry.version = std::string(*key);
    return entry;
  }
  if (at != std::string_view::npos) {
    if (at + 1 == text.size())
      throw std::invalid_argument(fmt::format("{}: '{}' names no version after '@'", where, text));
    entry.version = std::string(text.substr(at + 1));
  }
  return entry;
}

Stack parse_stack(const std::vector<std::string>& entries, std::string_view where) {
  Stack stack;
  for (const auto& text : entries) {
    StackEntry entry = parse_stack_entry(text, where);
    if (std::find(stack.entries.begin(), stack.entries.end(), entry) == stack.entries.end())
      stack.entries.push_back(std::move(entry));
  }
  return stack;
}

}  // namespace ropelens
