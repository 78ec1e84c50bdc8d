#include <map>

#include <fmt/format.h>

#include "../support.hpp"
#include "ropelens/engines/engine_comparison.hpp"

namespace ropelens::rules {
namespace eng301 {
namespace {

std::string length_text(const LengthLimit& limit) {
  if (limit.default_tokens && limit.default_tokens != limit.limit_tokens)
    return fmt::format("{} (served by default: {})", *limit.limit_tokens, *limit.default_tokens);
  return fmt::format("{}", *limit.limit_tokens);
}

std::string where(const Model& model) {
  for (const auto& setup : model.setups)
    if (setup.factor && setup.factor->from.origin == Origin::config) return setup.factor->from.pointer;
  return model.max_position_embeddings.from.pointer;
}

}  // namespace

static void check(const Context& cx, Sink& out) {
  if (cx.model.setups.empty() || from_gguf_file(cx.model)) return;  // a GGUF file runs in llama.cpp only
  const auto& views = cx.engine_views();
  // Only the limits count: a default below the limit (vLLM serves a LongRoPE model at its original length unless
  // --max-model-len says otherwise, on purpose: "to avoid performance degradation for shorter sequences",
  // vllm/config/model.py _get_and_verify_max_len) refuses longer requests with an error naming the limit, and
  // every engine still accepts the same length once asked.
  std::map<std::int64_t, int> limits;
  for (const auto& view : views)
    if (view.length.limit_tokens) ++limits[*view.length.limit_tokens];
  if (limits.size() < 2) return;
  std::map<std::string, std::vector<const EngineView*>> by_length;
  for (const auto& view : views)
    if (view.length.limit_tokens) by_length[length_text(view.length)].push_back(&view);
  nlohmann::json lengths = nlohmann::json::object();
  for (const auto& view : views)
    if (view.length.limit_tokens)
      lengths[view.label] = {{"limit_tokens", *view.length.limit_tokens},
                             {"default_tokens", view.length.default_tokens.value_or(*view.length.limit_tokens)},
                             {"derivation", view.length.derivation}};
  std::vector<std::string> parts;
  for (const auto& [length, group] : by_length) {
    std::vector<std::string> labels;
    for (const auto* view : group) labels.push_back(view->label);
    const std::string why = group.size() == 1 ? fmt::format(" ({})", group.front()->length.derivation) : "";
    parts.push_back(fmt::format("{} in {}{}{}", length, fmt::join(labels, ", "), why,
                                past_trained(cx, *group.front()->length.limit_tokens)));
  }
  out.report(where(cx.model), fmt::format("engines derive different maximum lengths: {}", fmt::join(parts, "; ")))
      .help(
          "serve with an explicit length on every engine (vLLM --max-model-len, SGLang --context-length, "
          "llama.cpp -c) and audit that length with ropelens check --target")
      .fact("lengths", lengths);
}

}  // namespace eng301

extern const Rule ENG301{{"ENG301", "engine-length-mismatch", Severity::warning,
                          "Engines derive different maximum lengths from the same config"},
                         &eng301::check};

}  // namespace ropelens::rules
