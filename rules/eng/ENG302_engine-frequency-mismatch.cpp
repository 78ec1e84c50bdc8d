#include <algorithm>
#include <cmath>
#include <functional>
#include <map>

#include <fmt/format.h>

#include "../support.hpp"
#include "ropelens/engines/engine_comparison.hpp"

namespace ropelens::rules {
namespace eng302 {
namespace {

// Sorts the list and drops repeats (the same pair differs between several views).
std::vector<int>& distinct(std::vector<int>& list) {
  std::sort(list.begin(), list.end());
  list.erase(std::unique(list.begin(), list.end()), list.end());
  return list;
}

// One finding per RoPE dict: a dict shared by sliding and full layers differs the same way in both.
std::map<std::string, std::vector<PairDifference>> by_dict(const Model& model, const EngineComparison& comparison) {
  std::map<std::string, std::vector<PairDifference>> out;
  for (const auto& d : comparison.frequencies)
    out[model.setups[static_cast<std::size_t>(d.setup)].pointer].push_back(d);
  return out;
}

// "full_attention layers: " when the dict belongs to one of several setups.
std::string layers_prefix(const Model& model, int setup) {
  const std::string& pointer = model.setups[static_cast<std::size_t>(setup)].pointer;
  const auto sharing =
      std::count_if(model.setups.begin(), model.setups.end(), [&](const RopeSetup& s) { return s.pointer == pointer; });
  if (model.setups.size() <= 1 || sharing > 1) return "";
  return fmt::format("{} layers: ", model.setups[static_cast<std::size_t>(setup)].name);
}

// The worst pair between versions engines ship today, else one involving the reference view [0], else any.
const PairDifference* worst_of(const std::vector<EngineView>& views, const std::vector<PairDifference>& differences) {
  auto current = [&](const PairDifference& d) {
    return is_current(views[d.view_a].version) && is_current(views[d.view_b].version);
  };
  auto with_reference = [](const PairDifference& d) { return d.view_a == 0; };
  auto any = [](const PairDifference&) { return true; };
  for (const auto& wanted : std::vector<std::function<bool(const PairDifference&)>>{current, with_reference, any}) {
    const PairDifference* worst = nullptr;
    for (const auto& d : differences)
      if (wanted(d) && (worst == nullptr || d.relative > worst->relative)) worst = &d;
    if (worst != nullptr) return worst;
  }
  return nullptr;
}

// "llama.cpp (GGUF) 9 pairs, transformers 4.4x 19 pairs": views that differ from the reference view 0.
std::string differing_from_reference(const std::vector<EngineView>& views,
                                     const std::vector<PairDifference>& differences) {
  std::map<std::size_t, std::vector<int>> pairs;
  for (const auto& d : differences)
    if (d.view_a == 0) pairs[d.view_b].push_back(d.pair);
  std::vector<std::string> parts;
  for (auto& [view, list] : pairs)
    parts.push_back(fmt::format("{} {} pairs", views[view].label, distinct(list).size()));
  return fmt::format("{}", fmt::join(parts, ", "));
}

// What the engine views that serve this config and differ from the reference say about their own reading of the
// setup ("vLLM main (unreleased): rope_pct 0.25 is not read …"), so the finding names the cause, not only the
// numbers. The float32 θ iteration note is left out: it never moves a pair by 1e-4.
std::string causes(const Context& cx, const std::vector<EngineView>& views,
                   const std::vector<PairDifference>& differences) {
  std::vector<std::string> out;
  std::vector<std::size_t> seen;
  for (const auto& d : differences) {
    if (d.view_a != 0 || std::find(seen.begin(), seen.end(), d.view_b) != seen.end()) continue;
    seen.push_back(d.view_b);
    const EngineView& view = views[d.view_b];
    if (!deployed(cx, view) || static_cast<std::size_t>(d.setup) >= view.setups.size()) continue;
    for (const auto& note : view.setups[static_cast<std::size_t>(d.setup)].notes) {
      const std::string text = note.text();
      if (text.rfind("θ iterated in float32", 0) == 0) continue;
      out.push_back(fmt::format("{}: {}", view.label, text));
    }
  }
  return fmt::format("{}", fmt::join(out, "; "));
}

}  // namespace

static void check(const Context& cx, Sink& out) {
  if (cx.model.setups.empty() || from_gguf_file(cx.model)) return;  // a GGUF file runs in llama.cpp only
  if (pair_figures_missing(cx)) return;
  const auto& views = cx.engine_views();
  const EngineComparison& comparison = cx.engine_comparison();
  for (const auto& [pointer, differences] : by_dict(cx.model, comparison)) {
    const PairDifference& worst = *worst_of(views, differences);
    std::vector<int> pairs;
    std::map<std::pair<std::size_t, std::size_t>, std::vector<int>> pairs_by_views;
    for (const auto& d : differences) {
      pairs.push_back(d.pair);
      pairs_by_views[{d.view_a, d.view_b}].push_back(d.pair);
    }
    distinct(pairs);
    nlohmann::json facts = nlohmann::json::object();
    for (const auto& [compared, differing] : pairs_by_views)
      facts[fmt::format("{} vs {}", views[compared.first].label, views[compared.second].label)] = differing;
    // A frequency of 0 (a base float32 cannot hold, in llama.cpp) has no finite ratio to the other.
    const bool finite_ratio = std::isfinite(worst.ratio());
    std::string message = fmt::format(
        "{}{} pairs get frequencies that differ by more than 1e-4 between engines; worst pair {}: {} {:.6g} vs {} "
        "{:.6g} ({})",
        layers_prefix(cx.model, worst.setup), pairs.size(), worst.pair, views[worst.view_a].label, worst.inv_freq_a,
        views[worst.view_b].label, worst.inv_freq_b,
        finite_ratio ? fmt::format("×{:.4g}", worst.ratio()) : std::string("no finite ratio"));
    if (const std::string others = differing_from_reference(views, differences); !others.empty())
      message += fmt::format("; differing from {}: {}", views.front().label, others);
    if (const std::string why = causes(cx, views, differences); !why.empty()) message += fmt::format(" ({})", why);
    const bool between_deployments = std::any_of(differences.begin(), differences.end(), [&](const PairDifference& d) {
      return deployed(cx, views[d.view_a]) && deployed(cx, views[d.view_b]);
    });
    Finding finding = out.report_as(between_deployments ? Severity::warning : Severity::info, pointer, message);
    finding
        .help(
            "serve the model on the engine (and version) it was validated with, or use settings every engine "
            "computes alike; compare them with ropelens table --engine all")
        .fact("differing_pairs", facts)
        .fact("worst_pair", worst.pair);
    if (finite_ratio) finding.fact("worst_ratio", worst.ratio());
  }
}

}  // namespace eng302

extern const Rule ENG302{{"ENG302", "engine-frequency-mismatch", Severity::warning,
                          "Engines compute different RoPE frequencies for the same config"},
                         &eng302::check};

}  // namespace ropelens::rules
