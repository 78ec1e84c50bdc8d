#include <cmath>
#include <numbers>
#include <stdexcept>

#include "ropelens/schemes/schemes.hpp"

namespace ropelens {

namespace {

constexpr double kSinusoidalBase = 10000.0;

// Pairs (sin, cos) cover dims 2i and 2i+1, so an odd d_model still has a last, sin-only pair.
int sinusoidal_pair_count(int d_model) { return (d_model + 1) / 2; }

}  // namespace

double sinusoidal_inverse_frequency(int i, int d_model) {
  if (d_model < 1) throw std::invalid_argument("sinusoidal: d_model must be >= 1");
  if (i < 0 || i >= sinusoidal_pair_count(d_model))
    throw std::invalid_argument("sinusoidal: pair index must be in [0, ceil(d_model / 2))");
  return std::pow(kSinusoidalBase, -2.0 * i / d_model);
}

double sinusoidal_wavelength_tokens(int i, int d_model) {
  return 2.0 * std::numbers::pi / sinusoidal_inverse_frequency(i, d_model);
}

double sinusoidal_longest_wavelength_tokens(int d_model) {
  return sinusoidal_wavelength_tokens(sinusoidal_pair_count(d_model) - 1, d_model);
}

}  // namespace ropelens
