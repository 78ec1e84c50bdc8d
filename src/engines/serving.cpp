// Snippets shared by the engines that take a change as a config override (vLLM, SGLang): the whole rope_parameters
// dict for the versions that read it (an override replaces the dict, so every key the model needs is written, and
// an engine that copied rope_scaling into rope_parameters before applying the override ignores a rope_scaling
// one), the rope_scaling fragment only for a pinned release that still reads it (docs/engines.md, "Override
// snippets").
#include "serving.hpp"

#include <utility>

#include <fmt/format.h>

namespace ropelens::engine_detail {
namespace {

std::string limit_note(const ShortLimit& limits, std::string_view variable) {
  return fmt::format("{} derive{} {} tokens for the edited config: {} lets the length pass that limit",
                     fmt::join(limits.labels, " and "), limits.labels.size() == 1 ? "s" : "", limits.limit_tokens,
                     variable.substr(0, variable.find('=')));
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

bool pins_release_before(const Deployment* deployment, Engine engine, std::string_view release) {
  if (!deployment) return false;
  for (const DeployedEngine& entry : deployment->engines)
    if (entry.engine == engine && release_before(engine, entry.pinned, release)) return true;
  return false;
}

bool pins_release_before(const SnippetRequest& request, Engine engine, std::string_view release) {
  return pins_release_before(request.deployment, engine, release);
}

std::vector<EngineSnippet> override_snippets(const EngineRow& row, const SnippetRequest& request,
                                             const std::vector<OverrideForm>& forms) {
  const ServeFlags& serve = row.serve;
  const std::int64_t target = request.change.target_tokens;
  const ShortLimit limits = short_limits(*request.views, row.engine, target);
  const std::string env = limits.labels.empty() ? "" : std::string(serve.allow_longer) + " ";
  std::vector<EngineSnippet> out;
  for (const OverrideForm& form : forms) {
    const std::string& json = form.rope_parameters ? request.v5_override : request.v4_override;
    EngineSnippet snippet{row.engine,
                          form.versions,
                          fmt::format("{}{} {} {} {} {}", env, launch_command(serve, request.model),
                                      serve.config_override, shell_word(json), serve.context_length, target),
                          {}};
    if (!limits.labels.empty()) snippet.notes.push_back(limit_note(limits, serve.allow_longer));
    out.push_back(std::move(snippet));
  }
  return out;
}

}  // namespace ropelens::engine_detail
