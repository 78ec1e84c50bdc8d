// Proportional (Gemma 4): the exponent uses the full head_dim; pairs past the rotated share get frequency 0.
#include <cmath>

#include "methods.hpp"

namespace ropelens::rope_detail {

RopeTable compute_proportional(const RopeSetup& setup) {
  RopeTable table;
  const int head_dim = setup.head_dim.value;
  const int pairs = head_dim / 2;
  const int rotated = setup.rotary_dim / 2;
  const double factor = setup.factor ? setup.factor->value : 1.0;
  table.factor = factor;
  table.effective_theta = setup.rope_theta.value;
  table.base_inv_freq = base_inverse_frequencies(setup.rope_theta.value, head_dim, pairs);
  table.inv_freq.assign(static_cast<std::size_t>(pairs), 0.0);
  table.bands.assign(static_cast<std::size_t>(pairs), Band::zero);
  for (int i = 0; i < pairs; ++i) {
    auto k = static_cast<std::size_t>(i);
    if (i >= rotated) {
      table.base_inv_freq[k] = 0.0;
      continue;
    }
    table.inv_freq[k] = table.base_inv_freq[k] / factor;
    table.bands[k] = factor == 1.0 ? Band::kept : Band::scaled;
  }
  return table;
}

}  // namespace ropelens::rope_detail
