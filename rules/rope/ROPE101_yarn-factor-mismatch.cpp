#include <cmath>
#include <map>

#include <fmt/format.h>

#include "../support.hpp"
#include "ropelens/engines/engine_views.hpp"

namespace ropelens::rules {
namespace rope101 {
namespace {

// "; engines serve 40960 in vLLM main (unreleased), SGLang; 131072 in vLLM ≤ 0.21": the stack's views, as ENG301
// compares them, so the two findings never disagree on what an engine serves.
std::string served_lengths(const Context& cx, nlohmann::json& facts) {
  std::map<std::int64_t, std::vector<std::string>> by_length;
  for (const auto& view : cx.engine_views())
    if (view.length.limit_tokens) {
      by_length[*view.length.limit_tokens].push_back(view.label);
      facts[view.label] = *view.length.limit_tokens;
    }
  std::vector<std::string> parts;
  for (const auto& [tokens, labels] : by_length)
    parts.push_back(fmt::format("{} in {}", tokens, fmt::join(labels, ", ")));
  return parts.empty() ? "" : fmt::format("; engines serve {}", fmt::join(parts, "; "));
}

// "transformers 4.5x": the views of the stack that run the setup with the factor max/original (transformers
// 4.48–4.5x), where the mismatch changes what runs; none when no engine of the stack reads the factor that way.
std::vector<std::string> reading_ratio(const Context& cx, int setup, double ratio) {
  std::vector<std::string> labels;
  for (const EngineView& view : cx.engine_views())
    for (const EngineSetupView& s : view.setups)
      if (cx.deployment.serves(engine_of(view.version)) && s.setup == setup &&
          std::abs(s.factor - ratio) <= 1e-9 * ratio)
        labels.push_back(view.label);
  return labels;
}

}  // namespace

static void check(const Context& cx, Sink& out) {
  for (int i : distinct_dict_setups(cx.model)) {
    const RopeSetup& s = cx.model.setups[static_cast<std::size_t>(i)];
    if (s.type != RopeType::yarn || !s.factor || !s.original_max_position_embeddings) continue;
    const auto& original = *s.original_max_position_embeddings;
    if (original.from.origin == Origin::derived) continue;  // filled with the declared length: ratio 1 (CFG009)
    const auto declared = s.max_position_embeddings.value;
    const double ratio = static_cast<double>(declared) / static_cast<double>(original.value);
    const double factor = s.factor->value;
    if (std::abs(ratio - 1.0) < 1e-9 || std::abs(factor - ratio) <= 1e-9 * factor) continue;
    if (reading_ratio(cx, i, ratio).empty()) continue;  // every engine of the stack runs the factor as written
    const auto extended = static_cast<std::int64_t>(std::ceil(static_cast<double>(original.value) * factor));
    nlohmann::json served = nlohmann::json::object();
    const std::string engines = served_lengths(cx, served);
    out.report(
           s.factor->from.pointer,
           fmt::format("yarn factor {} disagrees with max_position_embeddings {} / original_max_position_embeddings "
                       "{} = {}: transformers v5 uses {}, 4.48–4.5x used {}{}",
                       number(factor), declared, original.value, number(ratio), number(factor), number(ratio), engines))
        .help(fmt::format("set max_position_embeddings to {} (original × factor) if the model is meant to serve that "
                          "length, or set factor to {}",
                          extended, number(ratio)))
        .related(s.max_position_embeddings.from.pointer)
        .related(original.from.pointer)
        .fact("factor", factor)
        .fact("implicit_factor", ratio)
        .fact("max_position_embeddings", declared)
        .fact("original_max_position_embeddings", original.value)
        .fact("extended_tokens", extended)
        .fact("served_tokens", served);
  }
}

}  // namespace rope101

extern const Rule ROPE101{{"ROPE101", "yarn-factor-mismatch", Severity::warning,
                           "The yarn factor disagrees with max_position_embeddings / original_max_position_embeddings"},
                          &rope101::check};

}  // namespace ropelens::rules
