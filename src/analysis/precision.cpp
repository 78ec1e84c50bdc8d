// Numbers derived from a setup that are not frequencies: float32 angle error and engine magnitudes.
#include <algorithm>
#include <cmath>

#include "ropelens/analysis/analysis.hpp"
#include "ropelens/rope/rope.hpp"

namespace ropelens {

double float32_angle_error(double inv_freq, std::int64_t last_position, int window) {
  const float f = static_cast<float>(inv_freq);
  double worst = 0.0;
  for (std::int64_t m = std::max<std::int64_t>(0, last_position - window + 1); m <= last_position; ++m) {
    const float angle = static_cast<float>(m) * f;  // transformers: float32 inv_freq times float32 positions
    worst = std::max(worst, std::fabs(static_cast<double>(angle) - static_cast<double>(m) * inv_freq));
  }
  return worst;
}

namespace {

// An upper bound of float32_angle_error: the error of rounding inv_freq, carried to the last position, plus half
// a float32 ulp of the largest angle and of the position. Pairs whose bound cannot beat the worst error found so far
// are skipped.
double angle_error_bound(double inv_freq, std::int64_t last_position) {
  const double position = static_cast<double>(last_position);
  const double rounding = std::fabs(static_cast<double>(static_cast<float>(inv_freq)) - inv_freq) * position;
  const float largest = static_cast<float>(position * inv_freq * 1.001);
  const double half_ulp = (static_cast<double>(std::nextafter(largest, INFINITY)) - static_cast<double>(largest)) * 0.5;
  const float position_f = static_cast<float>(position);  // positions past 2^24 round in float32 too
  const double position_rounding =
      (static_cast<double>(std::nextafter(position_f, INFINITY)) - static_cast<double>(position_f)) * inv_freq;
  return (rounding + half_ulp + position_rounding) * 1.001;
}

}  // namespace

std::optional<AnglePrecision> worst_angle_precision(const std::vector<double>& inv_freq, std::int64_t last_position,
                                                    double only_above, int window) {
  std::vector<std::pair<double, std::size_t>> by_bound;
  for (std::size_t i = 0; i < inv_freq.size(); ++i) {
    if (inv_freq[i] <= 0.0) continue;
    const double bound = angle_error_bound(inv_freq[i], last_position);
    if (bound > only_above) by_bound.emplace_back(bound, i);
  }
  std::sort(by_bound.begin(), by_bound.end(),
            [](const auto& a, const auto& b) { return a.first != b.first ? a.first > b.first : a.second < b.second; });
  std::optional<AnglePrecision> worst;
  for (const auto& [bound, i] : by_bound) {
    if (worst && bound < worst->error_rad) break;
    double error = float32_angle_error(inv_freq[i], last_position, window);
    if (!worst || error > worst->error_rad || (error == worst->error_rad && static_cast<int>(i) < worst->pair))
      worst = AnglePrecision{static_cast<int>(i), static_cast<double>(last_position) * inv_freq[i], error};
  }
  return worst;
}

double mla_softmax_scale_multiplier(double factor, double mscale_all_dim) {
  double mscale = yarn_mscale(factor, mscale_all_dim);
  return mscale * mscale;
}

double vllm_static_dynamic_base(double theta, int rotary_dim, double factor) {
  return ntk_aware_base(theta, rotary_dim, factor * factor - factor + 1.0);
}

std::int64_t smallest_covering_factor(std::int64_t target_tokens, std::int64_t original_tokens) {
  if (original_tokens <= 0) return 1;
  std::int64_t factor = (target_tokens + original_tokens - 1) / original_tokens;
  return factor < 1 ? 1 : factor;
}

}  // namespace ropelens
