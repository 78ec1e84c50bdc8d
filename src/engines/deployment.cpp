// A stack resolved into a deployment: each pinned version placed in its engine's version table, and the versions
// and engines each command then covers.
#include "ropelens/engines/deployment.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "ropelens/engines/registry.hpp"
#include "ropelens/engines/versions.hpp"
#include "ropelens/model/text.hpp"

namespace ropelens {
namespace {

std::vector<std::string> version_keys(Engine engine) {
  std::vector<std::string> keys;
  for (EngineVersion version : versions_of(engine)) keys.emplace_back(version_key(version));
  return keys;
}

DeployedEngine resolve_entry(const StackEntry& entry, std::string_view where, std::vector<std::string>& notes) {
  DeployedEngine deployed{entry.engine, entry.version.value_or(""), std::nullopt};
  if (!entry.version) return deployed;
  const auto resolved = resolve_version(entry.engine, *entry.version);
  if (!resolved)
    throw std::invalid_argument(fmt::format(
        "{}: {} version '{}' is not modelled{}; expected {}", where, to_string(entry.engine), *entry.version,
        did_you_mean(*entry.version, version_keys(entry.engine)), version_choices(entry.engine)));
  deployed.version = resolved->version;
  if (resolved->note) notes.push_back(*resolved->note);
  return deployed;
}

// A version a product runs (KTransformers' SGLang, LM Studio's MLX-LM) counts only when its alias pins it.
bool product_version(EngineVersion version) {
  const auto& aliases = engine_row(engine_of(version)).version_aliases;
  return std::any_of(aliases.begin(), aliases.end(),
                     [&](const VersionAlias& alias) { return alias.key == version_key(version); });
}

bool wanted(const DeployedEngine& entry, EngineVersion version) {
  return entry.engine == engine_of(version) && (entry.version ? *entry.version == version : !product_version(version));
}

std::vector<Engine> in_registry_order(const std::vector<Engine>& engines) {
  std::vector<Engine> out;
  for (Engine engine : all_engines())
    if (std::find(engines.begin(), engines.end(), engine) != engines.end()) out.push_back(engine);
  return out;
}

}  // namespace

std::vector<Engine> Deployment::served() const {
  if (!stated()) {
    std::vector<Engine> by_default;
    for (Engine engine : all_engines())
      if (engine_row(engine).in_default_stack) by_default.push_back(engine);
    return by_default;
  }
  std::vector<Engine> engines_named;
  for (const auto& entry : engines) engines_named.push_back(entry.engine);
  return in_registry_order(engines_named);
}

bool Deployment::serves(Engine engine) const {
  return (!stated() && engine_row(engine).in_default_stack) ||
         std::any_of(engines.begin(), engines.end(), [&](const DeployedEngine& e) { return e.engine == engine; });
}

bool Deployment::pins(EngineVersion version) const {
  return std::any_of(engines.begin(), engines.end(),
                     [&](const DeployedEngine& e) { return e.version && *e.version == version; });
}

std::vector<EngineVersion> Deployment::versions() const {
  std::vector<EngineVersion> out;
  for (Engine engine : served())
    for (EngineVersion version : versions_of(engine)) {
      // Unpinned, an engine runs its releases: a change only on its main branch counts when pinned (vllm@main).
      // A product built on an engine (KTransformers, LM Studio) counts only when named.
      const bool runs = std::any_of(engines.begin(), engines.end(), [&](const DeployedEngine& e) {
        return wanted(e, version) && (e.version || is_released(version));
      });
      if (stated() ? runs : is_released(version) && !product_version(version)) out.push_back(version);
    }
  return out;
}

std::vector<EngineVersion> Deployment::compared_versions() const {
  std::vector<EngineVersion> out = versions();
  const std::vector<Engine> engines_served = served();
  const EngineVersion reference = reference_version();
  if (engines_served.size() == 1 && engines_served.front() != engine_of(reference)) out.insert(out.begin(), reference);
  return out;
}

std::vector<Engine> Deployment::compared_engines() const {
  std::vector<Engine> out;
  for (EngineVersion version : compared_versions()) out.push_back(engine_of(version));
  return in_registry_order(out);
}

namespace {

std::vector<Engine> within(std::string_view engine_option, const std::vector<Engine>& allowed,
                           const Deployment& deployment) {
  if (engine_option == "all") return allowed;
  const std::vector<Engine> engines = parse_engine_selection(engine_option);
  if (std::find(allowed.begin(), allowed.end(), engines.front()) == allowed.end())
    throw std::invalid_argument(
        fmt::format("--engine {} is not in the stack ({})", to_string(engines.front()), deployment.describe()));
  return engines;
}

}  // namespace

std::vector<Engine> Deployment::viewed(std::string_view engine_option) const {
  return within(engine_option, compared_engines(), *this);
}

std::vector<Engine> Deployment::served(std::string_view engine_option) const {
  return within(engine_option, served(), *this);
}

namespace {

std::vector<std::string> entry_texts(const std::vector<DeployedEngine>& engines) {
  std::vector<std::string> parts;
  for (const auto& entry : engines)
    parts.push_back(runner_pin(entry.pinned)
                        ? entry.pinned  // "ollama@0.5.12", as --stack takes it
                        : fmt::format("{}{}", to_string(entry.engine), entry.pinned.empty() ? "" : "@" + entry.pinned));
  return parts;
}

}  // namespace

std::string Deployment::describe() const { return fmt::format("{}", fmt::join(entry_texts(engines), ", ")); }

std::string Deployment::stack_option() const { return fmt::format("{}", fmt::join(entry_texts(engines), ",")); }

Deployment resolve_deployment(const Stack& stack, std::string_view where) {
  Deployment deployment;
  for (const StackEntry& entry : stack.entries) {
    DeployedEngine deployed = resolve_entry(entry, where, deployment.notes);
    if (std::find(deployment.engines.begin(), deployment.engines.end(), deployed) == deployment.engines.end())
      deployment.engines.push_back(std::move(deployed));
  }
  return deployment;
}

Deployment with_engine_option(Deployment deployment, std::string_view engine_option) {
  if (deployment.stated() || engine_option.empty() || engine_option == "all") return deployment;
  const std::vector<Engine> named = parse_engine_selection(engine_option);
  if (!engine_row(named.front()).in_default_stack) deployment.engines.push_back({named.front(), "", std::nullopt});
  return deployment;
}

std::vector<EngineView> deployment_views(const Model& model, const Deployment& deployment, std::int64_t target_tokens) {
  return engine_views(model, deployment.compared_versions(), target_tokens);
}

}  // namespace ropelens
