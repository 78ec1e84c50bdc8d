// Internal to the engines: what the snippets of several engines share.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ropelens/engines/registry.hpp"
#include "ropelens/engines/versions.hpp"
#include "ropelens/model/text.hpp"

namespace ropelens::engine_detail {

// The views of `engine` whose derived limit stops short of the target, and that limit.
struct ShortLimit {
  std::vector<std::string> labels;
  std::int64_t limit_tokens = 0;
};
ShortLimit short_limits(const std::vector<EngineView>& views, Engine engine, std::int64_t target_tokens);

// One spelling of a config override and the engine versions that honour it.
struct OverrideForm {
  std::string versions;  // "vLLM ≥ 0.12 (reads rope_parameters, PR #28542)"
  bool rope_parameters;  // the whole rope_parameters dict (request.v5_override), else the rope_scaling fragment
};

// Whether the deployment pins a release of `engine` older than `release`.
bool pins_release_before(const Deployment* deployment, Engine engine, std::string_view release);
bool pins_release_before(const SnippetRequest& request, Engine engine, std::string_view release);

// The change as the engine's config override (its row's serve.config_override) in each of `forms`, with its context
// length, and the row's allow_longer variable as an environment prefix when a view of the engine derives a shorter
// length than the target: what vLLM and SGLang take.
std::vector<EngineSnippet> override_snippets(const EngineRow& row, const SnippetRequest& request,
                                             const std::vector<OverrideForm>& forms);

}  // namespace ropelens::engine_detail
