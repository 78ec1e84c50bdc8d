// The engines a deployment runs (`--stack vllm@main,llama.cpp`, or "stack" in .ropelens.json): the engine rules,
// engine views, suggestions and snippets then cover only these engines and versions.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ropelens/engines/engine.hpp"

namespace ropelens {

struct StackEntry {
  Engine engine = Engine::transformers;
  std::optional<std::string> version;  // a version key (rope/engines/engine_stack.hpp); none: every modelled version
  bool operator==(const StackEntry&) const = default;
};

// Empty: no stack was given, every engine and version counts.
struct Stack {
  std::vector<StackEntry> entries;

  bool empty() const { return entries.empty(); }
  // The engines of the stack in all_engines() order, each once; every engine when the stack is empty.
  std::vector<Engine> engines() const;
  bool contains(Engine engine) const;
  // "vllm@main, llama.cpp"
  std::string describe() const;
};

// One entry, "ENGINE" or "ENGINE@VERSION"; `where` starts the error ("--stack", "/stack/0"). Throws
// std::invalid_argument naming the nearest engine on a typo. The version is checked against the modelled ones by
// require_modelled_versions (rope/engines/engine_stack.hpp).
StackEntry parse_stack_entry(std::string_view text, std::string_view where);
// Several entries (each already split at commas); a repeated entry is kept once.
Stack parse_stack(const std::vector<std::string>& entries, std::string_view where);

}  // namespace ropelens
