// The engines a deployment runs, as written (`--stack vllm@0.8.5,llama.cpp`, or "stack" in .ropelens.json): each
// entry an engine, optionally pinned to a version. resolve_deployment (deployment.hpp) places the versions.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ropelens/engines/engine.hpp"

namespace ropelens {

struct StackEntry {
  Engine engine{};
  std::optional<std::string> version;  // as written after '@': a version key or a release; none: every version
  bool operator==(const StackEntry&) const = default;
};

// Empty: no stack was given, every version of the default stack's engines counts.
struct Stack {
  std::vector<StackEntry> entries;
  bool empty() const { return entries.empty(); }
};

// One entry, "ENGINE" or "ENGINE@VERSION"; `where` starts the error ("--stack", "/stack/0"). Throws
// std::invalid_argument naming the nearest engine on a typo. The version is checked by resolve_deployment.
StackEntry parse_stack_entry(std::string_view text, std::string_view where);
// Several entries (each already split at commas); a repeated entry is kept once.
Stack parse_stack(const std::vector<std::string>& entries, std::string_view where);

}  // namespace ropelens
