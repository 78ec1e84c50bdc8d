#include <map>
#include <set>

#include <fmt/format.h>

#include "../support.hpp"
#include "ropelens/engines.hpp"

namespace ropelens::rules {
namespace {

// One finding per RoPE dict: a dict shared by sliding and full layers differs the same way in both.
std::map<std::string, std::vector<PairDifference>> by_dict(const Model& model, const EngineComparison& comparison) {
  std::map<std::string, std::vector<PairDifference>> out;
  for (const auto& d : comparison.frequencies) out[model.setups[static_cast<std::size_t>(d.setup)].pointer].push_back(d);
  return out;
}

std::string layers_prefix(const Model& model, int setup) {
  if (model.setups.size() <= 1) return "";
  return fmt::format("{} layers: ", model.setups[static_cast<std::size_t>(setup)].name);
}

// The worst pair among the versions engines ship today, when they differ; else among all versions.
const PairDifference* worst_of(const std::vector<EngineView>& views, const std::vector<PairDifference>& differences) {
  const PairDifference* worst = nullptr;
  for (bool current_only : {true, false}) {
    for (const auto& d : differences) {
      const bool current = is_current(views[d.view_a].version) && is_current(views[d.view_b].version);
      if ((current || !current_only) && (worst == nullptr || d.relative > worst->relative)) worst = &d;
    }
    if (worst != nullptr) return worst;
  }
  return worst;
}

// "llama.cpp (GGUF) 9 pairs, transformers 4.4x 19 pairs": views that differ from the reference view 0.
std::string differing_from_reference(const std::vector<EngineView>& views,
                                     const std::vector<PairDifference>& differences) {
  std::map<std::size_t, std::set<int>> pairs;
  for (const auto& d : differences)
    if (d.view_a == 0) pairs[d.view_b].insert(d.pair);
  std::vector<std::string> parts;
  for (const auto& [view, set] : pairs) parts.push_back(fmt::format("{} {} pairs", views[view].label, set.size()));
  return fmt::format("{}", fmt::join(parts, ", "));
}

}  // namespace

static void check(const Context& cx, Sink& out) {
  if (cx.model.setups.empty()) return;
  const auto views = engine_views(cx.model, all_engines(), cx.target_tokens);
  const EngineComparison comparison = compare_views(views);
  for (const auto& [pointer, differences] : by_dict(cx.model, comparison)) {
    const PairDifference& worst = *worst_of(views, differences);
    std::set<int> pairs;
    nlohmann::json facts = nlohmann::json::object();
    for (const auto& d : differences) {
      pairs.insert(d.pair);
      facts[fmt::format("{} vs {}", views[d.view_a].label, views[d.view_b].label)].push_back(d.pair);
    }
    std::string message = fmt::format(
        "{}{} pairs get frequencies that differ by more than 1e-4 between engines; worst pair {}: {} {:.6g} vs {} "
        "{:.6g} (×{:.4g})",
        layers_prefix(cx.model, worst.setup), pairs.size(), worst.pair, views[worst.view_a].label, worst.inv_freq_a,
        views[worst.view_b].label, worst.inv_freq_b, worst.ratio());
    if (const std::string others = differing_from_reference(views, differences); !others.empty())
      message += fmt::format("; differing from {}: {}", views.front().label, others);
    out.report(pointer, message)
        .help("serve the model on the engine (and version) it was validated with, or use settings every engine "
              "computes alike; compare them with ropelens table --engine all")
        .fact("differing_pairs", facts)
        .fact("worst_pair", worst.pair)
        .fact("worst_ratio", worst.ratio());
  }
}

extern const Rule ENG302{{"ENG302", "engine-frequency-mismatch", Severity::warning,
                          "Engines compute different RoPE frequencies for the same config"},
                         &check};

}  // namespace ropelens::rules
