#include <algorithm>
#include <cmath>
#include <cstddef>
#include <stdexcept>

#include "ropelens/schemes/schemes.hpp"

namespace ropelens {

namespace {

int next_power_of_two(int n) {
  int power = 1;
  while (power < n) power *= 2;
  return power;
}

void require_valid_alibi(int num_heads, double alibi_bias_max) {
  // A bound keeps next_power_of_two from overflowing; real models have at most a few hundred heads.
  constexpr int kMaxHeads = 1 << 20;
  if (num_heads < 1 || num_heads > kMaxHeads)
    throw std::invalid_argument("alibi_slopes: num_heads must be in [1, 2^20]");
  if (!std::isfinite(alibi_bias_max) || alibi_bias_max <= 0.0)
    throw std::invalid_argument("alibi_slopes: alibi_bias_max must be finite and > 0");
}

}  // namespace

std::vector<double> alibi_slopes(int num_heads, double alibi_bias_max) {
  require_valid_alibi(num_heads, alibi_bias_max);
  const int power = next_power_of_two(num_heads);
  auto slope = [&](int k) { return std::exp2(-alibi_bias_max * k / power); };

  std::vector<double> slopes;
  slopes.reserve(static_cast<std::size_t>(num_heads));
  if (power == num_heads) {
    for (int k = 1; k <= power; ++k) slopes.push_back(slope(k));
    return slopes;
  }
  for (int k = 2; k <= power; k += 2) slopes.push_back(slope(k));
  for (int k = 1; static_cast<int>(slopes.size()) < num_heads; k += 2) slopes.push_back(slope(k));
  return slopes;
}

std::vector<double> alibi_slopes(const AlibiInfo& alibi) { return alibi_slopes(alibi.num_heads, alibi.bias_max.value); }

double alibi_bias(double slope, std::int64_t distance_tokens) {
  return 0.0 - slope * static_cast<double>(distance_tokens);  // not -(…): distance 0 prints as 0, not -0
}

AlibiBiasAtTarget alibi_bias_at_target(const std::vector<double>& slopes, std::int64_t target_tokens) {
  if (slopes.empty()) throw std::invalid_argument("alibi_bias_at_target: no slopes");
  if (target_tokens < 1) throw std::invalid_argument("alibi_bias_at_target: target_tokens must be >= 1");

  const auto steepest = std::max_element(slopes.begin(), slopes.end());
  const auto shallowest = std::min_element(slopes.begin(), slopes.end());
  AlibiBiasAtTarget out;
  out.steepest_head = static_cast<int>(steepest - slopes.begin());
  out.shallowest_head = static_cast<int>(shallowest - slopes.begin());
  const std::int64_t farthest_distance = target_tokens - 1;
  out.steepest_slope = *steepest;
  out.shallowest_slope = *shallowest;
  out.steepest_bias = alibi_bias(out.steepest_slope, farthest_distance);
  out.shallowest_bias = alibi_bias(out.shallowest_slope, farthest_distance);
  return out;
}

}  // namespace ropelens
