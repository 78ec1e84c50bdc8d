// The inference engines ropelens models, as every layer names them. This is the one list of engines: the engine
// descriptors (rope/engines/engine_descriptor.hpp) add what each runs, and every other list of engines (options,
// views, KV-cache layouts, snippets) iterates over all_engines().
#pragma once

#include <optional>
#include <string_view>
#include <vector>

namespace ropelens {

enum class Engine { transformers, vllm, sglang, llama_cpp };

struct EngineIdentity {
  Engine engine;
  std::string_view name;                  // as --engine takes it and JSON prints it: "llama.cpp"
  std::string_view display_name;          // as text prints it: "vLLM"
  std::vector<std::string_view> aliases;  // other spellings --engine accepts
};

// In the order every output lists them.
const std::vector<EngineIdentity>& engine_identities();
const std::vector<Engine>& all_engines();
const EngineIdentity& identity(Engine engine);
std::string_view to_string(Engine engine);  // identity(engine).name
std::string_view display_name(Engine engine);
// A name or an alias; nullopt for anything else.
std::optional<Engine> parse_engine(std::string_view name);
// "all" or one engine name (as --engine takes it); throws std::invalid_argument naming the choices.
std::vector<Engine> parse_engine_selection(std::string_view text);
// The values --engine takes, "all" last.
std::vector<std::string_view> engine_choices();

}  // namespace ropelens
