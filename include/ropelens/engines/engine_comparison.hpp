// Engine views compared pair by pair: which frequencies, magnitudes and lengths differ between engines.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "ropelens/engines/engine_views.hpp"

namespace ropelens {

// Above float32 rounding (transformers and llama.cpp agree to ~2e-6 where they compute the same thing).
inline constexpr double kEngineRelativeThreshold = 1e-4;
double relative_difference(double a, double b);  // |a-b| / max(|a|,|b|), 0 when both are 0

struct PairDifference {
  int setup = 0;
  int pair = 0;
  std::size_t view_a = 0;  // indices into the compared views, view_a < view_b
  std::size_t view_b = 0;
  double inv_freq_a = 0.0;
  double inv_freq_b = 0.0;
  double relative = 0.0;
  double ratio() const;  // larger / smaller (≥ 1; infinite when one is 0)
};

struct MagnitudeDifference {
  int setup = 0;
  std::size_t view_a = 0;
  std::size_t view_b = 0;
  bool softmax = false;  // false: rope magnitude on cos/sin; true: softmax scale multiplier
  double value_a = 0.0;
  double value_b = 0.0;
};

struct EngineComparison {
  std::vector<PairDifference> frequencies;        // every (setup, pair, two views) above the threshold
  std::optional<PairDifference> worst_frequency;  // against the first (reference) view when any, else overall
  double max_frequency_relative = 0.0;            // over every pair, also below the threshold
  std::vector<MagnitudeDifference> magnitudes;
  bool lengths_differ = false;  // limit or default length differs between views that have one
};

EngineComparison compare_views(const std::vector<EngineView>& views, double threshold = kEngineRelativeThreshold);
double max_relative_difference(const EngineSetupView& a, const EngineSetupView& b);
std::vector<int> differing_pairs(const EngineSetupView& a, const EngineSetupView& b,
                                 double threshold = kEngineRelativeThreshold);

}  // namespace ropelens
