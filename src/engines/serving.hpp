// Internal to the engines: what the snippets of several engines share.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ropelens/engines/registry.hpp"

namespace ropelens::engine_detail {

// The views of `engine` whose derived limit stops short of the target, and that limit.
struct ShortLimit {
  std::vector<std::string> labels;
  std::int64_t limit_tokens = 0;
};
ShortLimit short_limits(const std::vector<EngineView>& views, Engine engine, std::int64_t target_tokens);

// The change as the engine's config override (its row's serve.config_override), once for each transformers
// generation, with its context length: what vLLM and SGLang take.
std::vector<EngineSnippet> override_snippets(const EngineRow& row, const SnippetRequest& request);

}  // namespace ropelens::engine_detail
