// The versions a stack pins and the views it compares; the engine files are not involved.
#include <algorithm>
#include <optional>
#include <stdexcept>

#include <fmt/format.h>

#include "ropelens/model/text.hpp"
#include "ropelens/engines/deployment.hpp"

namespace ropelens {

std::string_view version_key(EngineVersion version) {
  switch (version) {
    case EngineVersion::transformers_v5: return "v5";
    case EngineVersion::transformers_4_5x: return "4.5x";
    case EngineVersion::transformers_4_4x: return "4.4x";
    case EngineVersion::vllm_current: return "main";
    case EngineVersion::vllm_legacy: return "before-41277";
    case EngineVersion::vllm_dynamic_41277: return "before-56446";
    case EngineVersion::sglang: return "main";
    case EngineVersion::llama_cpp: return "main";
  }
  return "main";
}

namespace {

std::vector<std::string> stack_keys_of(Engine engine) {
  std::vector<std::string> keys;
  for (EngineVersion version : versions_of(engine)) keys.emplace_back(version_key(version));
  return keys;
}

std::optional<EngineVersion> find_version(Engine engine, std::string_view key) {
  for (EngineVersion version : versions_of(engine))
    if (version_key(version) == key) return version;
  return std::nullopt;
}

}  // namespace

std::string version_keys(Engine engine) { return fmt::format("{}", fmt::join(stack_keys_of(engine), ", ")); }

void require_modelled_versions(const Stack& stack, std::string_view where) {
  for (const auto& entry : stack.entries)
    if (entry.version && !find_version(entry.engine, *entry.version))
      throw std::invalid_argument(fmt::format(
          "{}: {} version '{}' is not modelled{}; ropelens models {}", where, to_string(entry.engine), *entry.version,
          did_you_mean(*entry.version, stack_keys_of(entry.engine)), version_keys(entry.engine)));
}

std::vector<EngineVersion> stack_versions(const Stack& stack) {
  std::vector<EngineVersion> versions;
  for (Engine engine : stack.engines())
    for (EngineVersion version : versions_of(engine)) {
      const bool wanted = stack.empty() || std::any_of(stack.entries.begin(), stack.entries.end(), [&](const auto& e) {
                            return e.engine == engine && (!e.version || *e.version == version_key(version));
                          });
      if (wanted) versions.push_back(version);
    }
  return versions;
}

std::vector<EngineVersion> compared_versions(const Stack& stack) {
  std::vector<EngineVersion> versions = stack_versions(stack);
  const auto engines = stack.engines();
  if (engines.size() == 1 && engines.front() != Engine::transformers)
    versions.insert(versions.begin(), EngineVersion::transformers_v5);
  return versions;
}

std::vector<Engine> compared_engines(const Stack& stack) {
  const std::vector<EngineVersion> versions = compared_versions(stack);
  std::vector<Engine> engines;
  for (Engine engine : all_engines())
    if (std::any_of(versions.begin(), versions.end(), [&](EngineVersion v) { return engine_of(v) == engine; }))
      engines.push_back(engine);
  return engines;
}

std::vector<EngineView> stack_views(const Model& model, const Stack& stack, std::int64_t target_tokens) {
  return engine_views(model, compared_versions(stack), target_tokens);
}

}  // namespace ropelens
