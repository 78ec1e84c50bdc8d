// Engine names and versions, answered from the registry (registry.cpp) and each engine's version table.
#include "ropelens/engines/engine.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "ropelens/engines/registry.hpp"
#include "ropelens/engines/versions.hpp"

namespace ropelens {
namespace {

const VersionRow* row_of(EngineVersion version) {
  for (const EngineRow* engine : engine_registry())
    for (const VersionRow& row : engine->versions.rows)
      if (row.version == version) return &row;
  return nullptr;
}

}  // namespace

const std::vector<Engine>& all_engines() {
  static const std::vector<Engine> engines = [] {
    std::vector<Engine> out;
    for (const EngineRow* row : engine_registry()) out.push_back(row->engine);
    return out;
  }();
  return engines;
}

std::string_view to_string(Engine engine) { return engine_row(engine).name; }
std::string_view display_name(Engine engine) { return engine_row(engine).display_name; }

std::optional<Engine> parse_engine(std::string_view name) {
  const auto is_alias = [&](const VersionAlias& alias) { return alias.name == name; };
  for (const EngineRow* row : engine_registry())
    if (name == row->name || std::find(row->aliases.begin(), row->aliases.end(), name) != row->aliases.end() ||
        std::any_of(row->version_aliases.begin(), row->version_aliases.end(), is_alias))
      return row->engine;
  return std::nullopt;
}

std::optional<std::string_view> version_alias_key(std::string_view name) {
  for (const EngineRow* row : engine_registry())
    for (const VersionAlias& alias : row->version_aliases)
      if (alias.name == name) return alias.key;
  return std::nullopt;
}

std::vector<std::string_view> engine_choices() {
  std::vector<std::string_view> choices;
  for (const EngineRow* row : engine_registry()) choices.push_back(row->name);
  choices.push_back("all");
  return choices;
}

std::string engine_names() {
  std::vector<std::string_view> names;
  for (const EngineRow* row : engine_registry()) names.push_back(row->name);
  return fmt::format("{}", fmt::join(names, ", "));
}

std::vector<Engine> parse_engine_selection(std::string_view text) {
  if (text == "all") return all_engines();
  if (auto engine = parse_engine(text)) return {*engine};
  throw std::invalid_argument(fmt::format("--engine '{}': expected {} or all", text, engine_names()));
}

Engine engine_of(EngineVersion version) {
  for (const EngineRow* engine : engine_registry())
    for (const VersionRow& row : engine->versions.rows)
      if (row.version == version) return engine->engine;
  return engine_registry().front()->engine;
}

std::string_view label_of(EngineVersion version) {
  const VersionRow* row = row_of(version);
  return row != nullptr ? row->label : std::string_view();
}

std::string_view version_key(EngineVersion version) {
  const VersionRow* row = row_of(version);
  return row != nullptr ? row->key : std::string_view();
}

bool is_current(EngineVersion version) { return default_version(engine_of(version)) == version; }

const std::vector<EngineVersion>& versions_of(Engine engine) {
  static const std::vector<std::vector<EngineVersion>> by_engine = [] {
    std::vector<std::vector<EngineVersion>> out;
    for (const EngineRow* engine_row : engine_registry()) {
      out.emplace_back();
      for (const VersionRow& row : engine_row->versions.rows) out.back().push_back(row.version);
    }
    return out;
  }();
  const auto registry = engine_registry();
  for (std::size_t i = 0; i < registry.size(); ++i)
    if (registry[i]->engine == engine) return by_engine[i];
  return by_engine.front();
}

}  // namespace ropelens
