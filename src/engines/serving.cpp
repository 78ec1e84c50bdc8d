// Snippets shared by the engines that take a change as a config override (vLLM, SGLang): with transformers v5 the
// whole rope_parameters dict (an override replaces the dict, so every key the model needs is written), with
// transformers 4.x the fragment itself (docs/engines.md, "Override snippets").
#include "serving.hpp"

#include <utility>

#include <fmt/format.h>

namespace ropelens::engine_detail {
namespace {

constexpr const char* kV5 = "with transformers v5 (rope_parameters replaces the whole dict, rope_theta included)";
constexpr const char* kV4 = "with transformers 4.x (rope_scaling)";

std::string limit_note(const ShortLimit& limits, std::string_view alternative) {
  return fmt::format("{} derive{} {} tokens for the edited config; set {} to go beyond",
                     fmt::join(limits.labels, " and "), limits.labels.size() == 1 ? "s" : "", limits.limit_tokens,
                     alternative);
}

}  // namespace

ShortLimit short_limits(const std::vector<EngineView>& views, Engine engine, std::int64_t target_tokens) {
  ShortLimit out;
  for (const auto& view : views) {
    if (engine_of(view.version) != engine || !view.length.limit_tokens) continue;
    if (*view.length.limit_tokens >= target_tokens) continue;
    out.labels.push_back(view.label);
    out.limit_tokens = *view.length.limit_tokens;
  }
  return out;
}

std::vector<EngineSnippet> override_snippets(const EngineRow& row, const SnippetRequest& request) {
  const ServeFlags& serve = row.serve;
  const std::int64_t target = request.change.target_tokens;
  const ShortLimit limits = short_limits(*request.views, row.engine, target);
  std::vector<EngineSnippet> out;
  for (const auto& [versions, json] :
       {std::pair<std::string, std::string>{kV5, request.v5_override}, {kV4, request.v4_override}}) {
    EngineSnippet snippet{
        row.engine,
        versions,
        fmt::format("{} {} '{}' {} {}", serve.launch, serve.config_override, json, serve.context_length, target),
        {}};
    if (!limits.labels.empty()) snippet.notes.push_back(limit_note(limits, serve.allow_longer));
    out.push_back(std::move(snippet));
  }
  return out;
}

}  // namespace ropelens::engine_detail
