// Internal to the normalizer, included by from_gguf.cpp alone: llama3 scaling recovered from a GGUF rope_freqs tensor.
// Header-only so that the unity batches of the core keep their files.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <variant>
#include <vector>

#include "ropelens/model/config_issues.hpp"

namespace ropelens::normalize_detail {

// The parameters of transformers' _compute_llama3_parameters that reproduce a rope_freqs tensor. The divisors fix
// only original/low_freq_factor and original/high_freq_factor; low_freq_factor is taken as 1, as in every
// Llama 3.x release and llama.cpp's converter default, which makes the original length the band's long edge.
struct Llama3Parameters {
  double factor = 1.0;
  double low_freq_factor = 1.0;
  double high_freq_factor = 1.0;
  std::int64_t original_length = 0;
  int band_first = 0;  // the pairs strictly between 1 and the factor
  int band_last = 0;
  double largest_error = 0.0;  // relative, between the stored and the re-computed divisors
};

struct UnscaledRopeFreqs {};  // every divisor is 1

using RopeFreqsReading = std::variant<UnscaledRopeFreqs, Llama3Parameters, UnrecoverableRopeFreqs>;

// How closely a re-computed divisor must match the stored one: llama.cpp's converter computes in float32, whose
// rounding in θ^(2i/d), 2π/freq and the band blend stays below 16 ulps.
inline constexpr double kRopeFreqsTolerance = 16.0 * 0x1p-23;

// llama3 scaling read back from the divisors llama.cpp's converter stores in rope_freqs.weight: the factor is the
// slowest pairs' divisor, and in the band between, 1/divisor = (1 - s)/factor + s with s linear in 1/wavelength,
// s = (original/wavelength - low)/(high - low). A straight-line fit of 1/wavelength against s gives the band's
// edges; the parameters count only when they re-compute every divisor to float32 precision.
// transformers' llama3 divisor of one wavelength (1, the factor, or the smooth blend between).
inline double llama3_divisor(double wavelength, const Llama3Parameters& p) {
  const auto original = static_cast<double>(p.original_length);
  if (wavelength < original / p.high_freq_factor) return 1.0;
  if (wavelength > original / p.low_freq_factor) return p.factor;
  const double smooth = (original / wavelength - p.low_freq_factor) / (p.high_freq_factor - p.low_freq_factor);
  return 1.0 / ((1.0 - smooth) / p.factor + smooth);
}

namespace rope_freqs_detail {

inline constexpr double kTwoPi = 2.0 * 3.14159265358979323846;

// The shortest decimal within `tolerance` (relative) of `value`, so that 4.0000003 reads as the 4 it was written as.
inline double shortest_decimal(double value, double tolerance) {
  for (int digits = 0; digits <= 6; ++digits) {
    const double scale = std::pow(10.0, digits);
    const double rounded = std::round(value * scale) / scale;
    if (std::abs(rounded - value) <= tolerance * std::abs(value)) return rounded;
  }
  return value;
}

inline std::vector<double> wavelengths(double theta, int rotary_dim) {
  std::vector<double> out;
  for (int i = 0; i < rotary_dim / 2; ++i)
    out.push_back(kTwoPi * std::pow(theta, static_cast<double>(2 * i) / rotary_dim));
  return out;
}

inline std::optional<UnrecoverableRopeFreqs> unusable_entry(const std::vector<double>& divisors, int pairs) {
  if (static_cast<int>(divisors.size()) != pairs)
    return UnrecoverableRopeFreqs{
        .reason = RopeFreqsMisfit::wrong_length, .count = static_cast<std::int64_t>(divisors.size()), .pairs = pairs};
  for (std::size_t i = 0; i < divisors.size(); ++i)
    if (!std::isfinite(divisors[i]) || divisors[i] <= 0.0)
      return UnrecoverableRopeFreqs{
          .reason = RopeFreqsMisfit::unusable_value, .pair = static_cast<int>(i), .value = divisors[i]};
  return std::nullopt;
}

// The band's blend weight s of a divisor: 1/divisor = (1 - s)/factor + s.
inline double blend_weight(double divisor, double factor) {
  return (1.0 / divisor - 1.0 / factor) / (1.0 - 1.0 / factor);
}

struct BandEdges {
  double long_wavelength = 0.0;   // original / low_freq_factor: longer waves are divided by the factor
  double short_wavelength = 0.0;  // original / high_freq_factor: shorter waves are kept
};

// Least squares of 1/wavelength = 1/long + s·(1/short - 1/long) over the band pairs.
inline std::optional<BandEdges> fit_band(const std::vector<int>& band, const std::vector<double>& divisors,
                                         const std::vector<double>& waves, double factor) {
  double sum_s = 0, sum_x = 0, sum_ss = 0, sum_sx = 0;
  for (int i : band) {
    const double s = blend_weight(divisors[static_cast<std::size_t>(i)], factor);
    const double x = 1.0 / waves[static_cast<std::size_t>(i)];
    sum_s += s;
    sum_x += x;
    sum_ss += s * s;
    sum_sx += s * x;
  }
  const double n = static_cast<double>(band.size());
  const double spread = n * sum_ss - sum_s * sum_s;
  if (!(spread > 0.0)) return std::nullopt;
  const double slope = (n * sum_sx - sum_s * sum_x) / spread;
  const double intercept = (sum_x - slope * sum_s) / n;
  if (!(intercept > 0.0) || !(slope > 0.0) || !std::isfinite(intercept + slope)) return std::nullopt;
  return BandEdges{1.0 / intercept, 1.0 / (intercept + slope)};
}

inline Llama3Parameters parameters_of(const BandEdges& edges, double factor, const std::vector<int>& band) {
  Llama3Parameters p;
  p.factor = shortest_decimal(factor, 0x1p-22);
  p.original_length = std::llround(edges.long_wavelength);
  const double original = static_cast<double>(p.original_length);
  // low_freq_factor 1 when the long edge is a whole number of tokens; else the factor that puts it there.
  if (std::abs(edges.long_wavelength - original) > kRopeFreqsTolerance * original)
    p.low_freq_factor = original / edges.long_wavelength;
  p.high_freq_factor = shortest_decimal(original / edges.short_wavelength, kRopeFreqsTolerance);
  p.band_first = band.front();
  p.band_last = band.back();
  return p;
}

// The first divisor the parameters do not re-compute, else the parameters with their largest error.
inline RopeFreqsReading verify(Llama3Parameters p, const std::vector<double>& divisors,
                               const std::vector<double>& waves) {
  for (std::size_t i = 0; i < divisors.size(); ++i) {
    const double expected = llama3_divisor(waves[i], p);
    const double error = std::abs(divisors[i] - expected) / expected;
    if (!(error <= kRopeFreqsTolerance))
      return UnrecoverableRopeFreqs{.reason = RopeFreqsMisfit::closed_form_mismatch,
                                    .pair = static_cast<int>(i),
                                    .value = divisors[i],
                                    .expected = expected};
    p.largest_error = std::max(p.largest_error, error);
  }
  return p;
}

}  // namespace rope_freqs_detail

// `divisors` as stored (inv_freq_i = θ^(-2i/d) / divisors[i]), with the θ and rotary dims llama.cpp applies them to.
inline RopeFreqsReading read_llama3_divisors(const std::vector<float>& stored, double theta, int rotary_dim) {
  using namespace rope_freqs_detail;
  const std::vector<double> divisors(stored.begin(), stored.end());
  const int pairs = rotary_dim / 2;
  if (auto unusable = unusable_entry(divisors, pairs)) return *unusable;
  if (std::all_of(divisors.begin(), divisors.end(), [](double d) { return d == 1.0; })) return UnscaledRopeFreqs{};
  const double factor = divisors.back();
  if (!(factor > 1.0))
    return UnrecoverableRopeFreqs{.reason = RopeFreqsMisfit::slowest_not_scaled, .pair = pairs - 1, .value = factor};
  std::vector<int> band;
  for (int i = 0; i < pairs; ++i)
    if (const double d = divisors[static_cast<std::size_t>(i)]; d != 1.0 && d != factor) band.push_back(i);
  if (band.size() < 2)
    return UnrecoverableRopeFreqs{.reason = RopeFreqsMisfit::too_few_band_pairs,
                                  .count = static_cast<std::int64_t>(band.size())};
  const std::vector<double> waves = wavelengths(theta, rotary_dim);
  const auto edges = fit_band(band, divisors, waves, factor);
  if (!edges || !(edges->long_wavelength < 9.2e18))
    return UnrecoverableRopeFreqs{.reason = RopeFreqsMisfit::band_not_llama3, .pair = band.front()};
  return verify(parameters_of(*edges, factor, band), divisors, waves);
}

}  // namespace ropelens::normalize_detail
