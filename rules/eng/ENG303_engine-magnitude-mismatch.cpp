#include <map>

#include <fmt/format.h>

#include "../support.hpp"
#include "ropelens/engines/engine_comparison.hpp"

namespace ropelens::rules {
namespace eng303 {
namespace {

std::string layers_prefix(const Model& model, int setup) {
  if (model.setups.size() <= 1) return "";
  return fmt::format("{} layers: ", model.setups[static_cast<std::size_t>(setup)].name);
}

// The key that sets the magnitude, when the config has one.
std::string magnitude_pointer(const RopeSetup& setup) {
  for (const auto* field :
       {&setup.yarn.attention_factor, &setup.yarn.mscale, &setup.yarn.mscale_all_dim, &setup.longrope.attention_factor})
    if (*field && (*field)->from.origin == Origin::config) return (*field)->from.pointer;
  return setup.pointer;
}

// "1 in transformers v5, SGLang; 1.2773 in vLLM ≤ 0.21"; a version without the model's class runs nothing.
std::string values_by_engine(const std::vector<EngineView>& views, int setup, bool softmax) {
  std::map<std::string, std::vector<std::string>> by_value;
  for (const auto& view : views) {
    if (view.no_class) continue;
    const auto& s = view.setups[static_cast<std::size_t>(setup)];
    by_value[fmt::format("{:.5g}", softmax ? s.softmax_multiplier : s.rope_magnitude)].push_back(view.label);
  }
  std::vector<std::string> parts;
  for (const auto& [value, labels] : by_value) parts.push_back(fmt::format("{} in {}", value, fmt::join(labels, ", ")));
  return fmt::format("{}", fmt::join(parts, "; "));
}

}  // namespace

static void check(const Context& cx, Sink& out) {
  if (cx.model.setups.empty() || from_gguf_file(cx.model)) return;  // a GGUF file runs in llama.cpp only
  const auto& views = cx.engine_views();
  const EngineComparison& comparison = cx.engine_comparison();
  std::map<std::string, std::pair<int, std::pair<bool, bool>>> dicts;  // pointer → setup, (rope, softmax) differ
  std::map<std::string, bool> between_deployments;
  for (const auto& m : comparison.magnitudes) {
    between_deployments[cx.model.setups[static_cast<std::size_t>(m.setup)].pointer] |=
        deployed(cx, views[m.view_a]) && deployed(cx, views[m.view_b]);
    auto& entry = dicts
                      .try_emplace(cx.model.setups[static_cast<std::size_t>(m.setup)].pointer, m.setup,
                                   std::make_pair(false, false))
                      .first->second;
    (m.softmax ? entry.second.second : entry.second.first) = true;
  }
  for (const auto& [pointer, entry] : dicts) {
    const int setup = entry.first;
    std::vector<std::string> parts;
    if (entry.second.first)
      parts.push_back(fmt::format("magnitude on cos/sin {}", values_by_engine(views, setup, false)));
    if (entry.second.second)
      parts.push_back(fmt::format("softmax scale multiplier {}", values_by_engine(views, setup, true)));
    const RopeSetup& s = cx.model.setups[static_cast<std::size_t>(setup)];
    const Severity severity = between_deployments[pointer] ? Severity::warning : Severity::info;
    out.report_as(severity, magnitude_pointer(s),
                  fmt::format("{}engines scale attention differently: {}", layers_prefix(cx.model, setup),
                              fmt::join(parts, "; ")))
        .help(
            "serve on an engine version that reads attention_factor, mscale and mscale_all_dim as transformers "
            "does (vLLM main, unreleased), or state attention_factor explicitly where every engine reads it")
        .related(pointer);
  }
}

}  // namespace eng303

extern const Rule ENG303{{"ENG303", "engine-magnitude-mismatch", Severity::warning,
                          "Engines scale cos/sin or the softmax differently for the same config"},
                         &eng303::check};

}  // namespace ropelens::rules
