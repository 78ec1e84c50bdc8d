// What a user deploys: the engines of the stack (`--stack vllm@0.8.5,llama.cpp`, or "stack" in .ropelens.json),
// each with the version it runs, resolved once by the command line and handed to check, table, suggest, fit and
// report. A deployment says which engine versions the rules and views compare, which engines fit and suggest
// serve, and (later) the length, parallelism and memory the launch line sets.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ropelens/engines/engine_views.hpp"
#include "ropelens/engines/stack.hpp"

namespace ropelens {

// One entry of the stack, resolved.
struct DeployedEngine {
  Engine engine{};
  std::string pinned;                    // the version as given after '@' ("0.8.5", "main"); "" when unpinned
  std::optional<EngineVersion> version;  // what the pin runs; none: every modelled version of the engine
  bool operator==(const DeployedEngine&) const = default;
};

struct Deployment {
  std::vector<DeployedEngine> engines;  // as the stack lists them, each once; empty: no stack was given
  std::vector<std::string> notes;       // what resolving said: a release newer than any ropelens places, …

  // A stack was given (without one every version of the default stack's engines counts).
  bool stated() const { return !engines.empty(); }
  // The engines it serves, in registry order: the stack's, or the default stack's (EngineRow::in_default_stack).
  std::vector<Engine> served() const;
  bool serves(Engine engine) const;
  // Some entry pins exactly this version.
  bool pins(EngineVersion version) const;
  // The versions it runs: a pinned entry its version, an unpinned one every modelled version of its engine, no
  // stack every version of the default stack's engines; a product's version (`kt`, `lmstudio`) only when pinned.
  std::vector<EngineVersion> versions() const;
  // The versions rules and engine tables compare: its own, and beside a lone engine other than the reference,
  // the reference version (transformers v5: what the config means) first.
  std::vector<EngineVersion> compared_versions() const;
  std::vector<Engine> compared_engines() const;  // their engines, in registry order
  // --engine ("all" or one engine) within what it compares; an engine outside it is an std::invalid_argument.
  std::vector<Engine> viewed(std::string_view engine_option) const;
  // --engine within what it serves (fit rows, suggest snippets); the same error outside it.
  std::vector<Engine> served(std::string_view engine_option) const;
  // "vllm@0.8.5, llama.cpp"
  std::string describe() const;
  // "vllm@0.8.5,llama.cpp": the --stack value that gives this deployment ("" when none was stated).
  std::string stack_option() const;
};

// Resolves every entry's version (a key or a release, versions.hpp); throws std::invalid_argument starting with
// `where` for a version that is neither, listing what the engine takes.
Deployment resolve_deployment(const Stack& stack, std::string_view where);
// Without a stack, --engine naming an engine outside the default stack (mlx-lm, trtllm, exllamav3) deploys that
// engine alone, as `--stack ENGINE` would; otherwise the deployment as it is.
Deployment with_engine_option(Deployment deployment, std::string_view engine_option);
// The compared versions' views at the target (engine_views over compared_versions()).
std::vector<EngineView> deployment_views(const Model& model, const Deployment& deployment, std::int64_t target_tokens);

}  // namespace ropelens
