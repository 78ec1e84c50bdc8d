// A stack (model/stack.hpp) against the engine versions ropelens models: the keys a version is pinned by, and the
// views a stack's rules and tables compare.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ropelens/engines/stack.hpp"
#include "ropelens/engines/engine_views.hpp"

namespace ropelens {

// How `--stack ENGINE@VERSION` names a modelled version: "v5", "4.5x", "main", "before-56446", …
std::string_view version_key(EngineVersion version);
// "v5, 4.5x, 4.4x": the keys of one engine's modelled versions, newest first.
std::string version_keys(Engine engine);
// Throws std::invalid_argument (starting with `where`) for a version that is not modelled, listing the modelled ones.
void require_modelled_versions(const Stack& stack, std::string_view where);

// The versions the stack runs: a pinned entry its version, an unpinned one every modelled version of its engine,
// an empty stack every version of every engine.
std::vector<EngineVersion> stack_versions(const Stack& stack);
// The versions rules and engine tables compare: the stack's, and for a stack of one engine other than
// transformers, transformers v5 first as the config's meaning.
std::vector<EngineVersion> compared_versions(const Stack& stack);
// The engines of compared_versions, in all_engines() order.
std::vector<Engine> compared_engines(const Stack& stack);
// Their views at the target (engine_views over compared_versions).
std::vector<EngineView> stack_views(const Model& model, const Stack& stack, std::int64_t target_tokens);

}  // namespace ropelens
