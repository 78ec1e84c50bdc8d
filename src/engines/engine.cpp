#include "ropelens/engines/engine.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

namespace ropelens {

const std::vector<EngineIdentity>& engine_identities() {
  static const std::vector<EngineIdentity> identities = {
      {Engine::transformers, "transformers", "transformers", {"hf"}},
      {Engine::vllm, "vllm", "vLLM", {}},
      {Engine::sglang, "sglang", "SGLang", {}},
      {Engine::llama_cpp, "llama.cpp", "llama.cpp", {"llamacpp", "llama_cpp", "gguf"}},
  };
  return identities;
}

const std::vector<Engine>& all_engines() {
  static const std::vector<Engine> engines = [] {
    std::vector<Engine> out;
    for (const auto& id : engine_identities()) out.push_back(id.engine);
    return out;
  }();
  return engines;
}

const EngineIdentity& identity(Engine engine) {
  for (const auto& id : engine_identities())
    if (id.engine == engine) return id;
  return engine_identities().front();
}

std::string_view to_string(Engine engine) { return identity(engine).name; }
std::string_view display_name(Engine engine) { return identity(engine).display_name; }

std::optional<Engine> parse_engine(std::string_view name) {
  for (const auto& id : engine_identities())
    if (name == id.name || std::find(id.aliases.begin(), id.aliases.end(), name) != id.aliases.end()) return id.engine;
  return std::nullopt;
}

std::vector<std::string_view> engine_choices() {
  std::vector<std::string_view> choices;
  for (const auto& id : engine_identities()) choices.push_back(id.name);
  choices.push_back("all");
  return choices;
}

std::vector<Engine> parse_engine_selection(std::string_view text) {
  if (text == "all") return all_engines();
  if (auto engine = parse_engine(text)) return {*engine};
  std::vector<std::string_view> names;
  for (const auto& id : engine_identities()) names.push_back(id.name);
  throw std::invalid_argument(fmt::format("--engine '{}': expected {} or all", text, fmt::join(names, ", ")));
}

}  // namespace ropelens
