// YaRN as transformers computes it: a ramp, linear in the pair index, between pairs kept as they are
// and pairs divided by the factor; bounds floored/ceiled unless truncate is false.
#include <algorithm>
#include <cmath>

#include "methods.hpp"

namespace ropelens::rope_detail {
namespace {

// The pair index whose wavelength fits `rotations` turns in the original length.
double correction_dim(double rotations, int dim, double base, double original_length) {
  return (dim * std::log(original_length / (rotations * kTwoPi))) / (2.0 * std::log(base));
}

double yarn_attention_factor(const YarnParams& yarn, double factor) {
  if (yarn.attention_factor) return yarn.attention_factor->value;
  bool both = yarn.mscale && yarn.mscale->value != 0.0 && yarn.mscale_all_dim && yarn.mscale_all_dim->value != 0.0;
  if (both) return yarn_mscale(factor, yarn.mscale->value) / yarn_mscale(factor, yarn.mscale_all_dim->value);
  return yarn_mscale(factor);
}

}  // namespace

RopeTable compute_yarn(const RopeSetup& setup) {
  RopeTable table = unscaled_table(setup);
  const double base = setup.rope_theta.value;
  const int dim = setup.rotary_dim;
  const double original =
      static_cast<double>(setup.original_max_position_embeddings ? setup.original_max_position_embeddings->value
                                                                 : setup.max_position_embeddings.value);
  const double factor =
      setup.factor ? setup.factor->value : static_cast<double>(setup.max_position_embeddings.value) / original;
  table.factor = factor;
  table.attention_factor = yarn_attention_factor(setup.yarn, factor);

  double low = correction_dim(setup.yarn.beta_fast.value, dim, base, original);
  double high = correction_dim(setup.yarn.beta_slow.value, dim, base, original);
  if (setup.yarn.truncate.value) {
    low = std::floor(low);
    high = std::ceil(high);
  }
  low = std::max(low, 0.0);
  high = std::min(high, static_cast<double>(dim - 1));
  table.correction_low = low;
  table.correction_high = high;
  if (low == high) high += 0.001;

  const std::vector<double> pos_freqs = base_powers(base, dim, static_cast<int>(table.inv_freq.size()));
  for (std::size_t i = 0; i < table.inv_freq.size(); ++i) {
    double ramp = std::clamp((static_cast<double>(i) - low) / (high - low), 0.0, 1.0);
    double extrapolation = 1.0 - ramp;
    double pos_freq = pos_freqs[i];
    double extrapolated = 1.0 / pos_freq;
    double interpolated = 1.0 / (factor * pos_freq);
    table.inv_freq[i] = interpolated * (1.0 - extrapolation) + extrapolated * extrapolation;
    table.bands[i] = ramp <= 0.0 ? Band::kept : ramp >= 1.0 ? Band::scaled : Band::interpolated;
  }
  return table;
}

}  // namespace ropelens::rope_detail
