// Where engine views disagree: per-pair frequencies, magnitudes and lengths, above a relative threshold.
#include <algorithm>
#include <cmath>
#include <limits>

#include "ropelens/engines/engine_report.hpp"

namespace ropelens {

double relative_difference(double a, double b) {
  const double scale = std::max(std::abs(a), std::abs(b));
  return scale == 0.0 ? 0.0 : std::abs(a - b) / scale;
}

double PairDifference::ratio() const {
  const double low = std::min(std::abs(inv_freq_a), std::abs(inv_freq_b));
  const double high = std::max(std::abs(inv_freq_a), std::abs(inv_freq_b));
  return low == 0.0 ? std::numeric_limits<double>::infinity() : high / low;
}

double max_relative_difference(const EngineSetupView& a, const EngineSetupView& b) {
  double worst = 0.0;
  for (std::size_t i = 0; i < std::min(a.inv_freq.size(), b.inv_freq.size()); ++i)
    worst = std::max(worst, relative_difference(a.inv_freq[i], b.inv_freq[i]));
  return worst;
}

std::vector<int> differing_pairs(const EngineSetupView& a, const EngineSetupView& b, double threshold) {
  std::vector<int> pairs;
  for (std::size_t i = 0; i < std::min(a.inv_freq.size(), b.inv_freq.size()); ++i)
    if (relative_difference(a.inv_freq[i], b.inv_freq[i]) > threshold) pairs.push_back(static_cast<int>(i));
  return pairs;
}

namespace {

void compare_frequencies(const std::vector<EngineView>& views, std::size_t a, std::size_t b, double threshold,
                         EngineComparison& out) {
  const std::size_t setups = std::min(views[a].setups.size(), views[b].setups.size());
  for (std::size_t s = 0; s < setups; ++s) {
    const auto& va = views[a].setups[s];
    const auto& vb = views[b].setups[s];
    for (std::size_t i = 0; i < std::min(va.inv_freq.size(), vb.inv_freq.size()); ++i) {
      const double relative = relative_difference(va.inv_freq[i], vb.inv_freq[i]);
      out.max_frequency_relative = std::max(out.max_frequency_relative, relative);
      if (relative <= threshold) continue;
      PairDifference d{static_cast<int>(s), static_cast<int>(i), a, b, va.inv_freq[i], vb.inv_freq[i], relative};
      out.frequencies.push_back(d);
    }
  }
}

void compare_magnitudes(const std::vector<EngineView>& views, std::size_t a, std::size_t b, double threshold,
                        EngineComparison& out) {
  const std::size_t setups = std::min(views[a].setups.size(), views[b].setups.size());
  for (std::size_t s = 0; s < setups; ++s) {
    const auto& va = views[a].setups[s];
    const auto& vb = views[b].setups[s];
    if (relative_difference(va.rope_magnitude, vb.rope_magnitude) > threshold)
      out.magnitudes.push_back({static_cast<int>(s), a, b, false, va.rope_magnitude, vb.rope_magnitude});
    if (relative_difference(va.softmax_multiplier, vb.softmax_multiplier) > threshold)
      out.magnitudes.push_back({static_cast<int>(s), a, b, true, va.softmax_multiplier, vb.softmax_multiplier});
  }
}

bool lengths_differ(const EngineView& a, const EngineView& b) {
  if (!a.length.limit_tokens || !b.length.limit_tokens) return false;
  return a.length.limit_tokens != b.length.limit_tokens || a.length.default_tokens != b.length.default_tokens;
}

// The worst difference against the reference view 0, else the worst overall.
std::optional<PairDifference> worst_of(const std::vector<PairDifference>& differences) {
  std::optional<PairDifference> worst;
  for (bool reference_only : {true, false}) {
    for (const auto& d : differences)
      if ((d.view_a == 0 || !reference_only) && (!worst || d.relative > worst->relative)) worst = d;
    if (worst) return worst;
  }
  return worst;
}

}  // namespace

EngineComparison compare_views(const std::vector<EngineView>& views, double threshold) {
  EngineComparison out;
  for (std::size_t a = 0; a < views.size(); ++a)
    for (std::size_t b = a + 1; b < views.size(); ++b) {
      if (views[a].no_class || views[b].no_class) continue;  // a version without the class runs nothing
      compare_frequencies(views, a, b, threshold, out);
      compare_magnitudes(views, a, b, threshold, out);
      out.lengths_differ = out.lengths_differ || lengths_differ(views[a], views[b]);
    }
  out.worst_frequency = worst_of(out.frequencies);
  return out;
}

EngineReport build_engine_report(const Model& model, const std::vector<Engine>& engines, std::int64_t target_tokens) {
  EngineReport report;
  report.target_tokens = target_tokens;
  report.views = engine_views(model, engines, target_tokens);
  report.comparison = compare_views(report.views);
  return report;
}

EngineReport select_engine_report(const std::vector<EngineView>& every_engine, const std::vector<Engine>& engines,
                                  std::int64_t target_tokens) {
  EngineReport report;
  report.target_tokens = target_tokens;
  for (const EngineView& view : every_engine)
    if (std::find(engines.begin(), engines.end(), engine_of(view.version)) != engines.end())
      report.views.push_back(view);
  report.comparison = compare_views(report.views);
  return report;
}

}  // namespace ropelens
