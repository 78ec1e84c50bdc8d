#include "ropelens/engines/stack.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "ropelens/model/text.hpp"

namespace ropelens {

std::vector<Engine> Stack::engines() const {
  if (empty()) return all_engines();
  std::vector<Engine> out;
  for (Engine engine : all_engines())
    if (contains(engine)) out.push_back(engine);
  return out;
}

bool Stack::contains(Engine engine) const {
  return std::any_of(entries.begin(), entries.end(), [&](const StackEntry& e) { return e.engine == engine; });
}

std::string Stack::describe() const {
  std::vector<std::string> parts;
  for (const auto& entry : entries)
    parts.push_back(fmt::format("{}{}", to_string(entry.engine), entry.version ? "@" + *entry.version : ""));
  return fmt::format("{}", fmt::join(parts, ", "));
}

StackEntry parse_stack_entry(std::string_view text, std::string_view where) {
  const auto at = text.find('@');
  const std::string_view name = text.substr(0, at);
  std::vector<std::string> names;
  for (const auto& id : engine_identities()) names.emplace_back(id.name);
  const auto engine = parse_engine(name);
  if (!engine)
    throw std::invalid_argument(fmt::format("{}: unknown engine '{}'{}; expected {}, each optionally @VERSION", where,
                                            name, did_you_mean(name, names), fmt::join(names, ", ")));
  StackEntry entry{*engine, std::nullopt};
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
