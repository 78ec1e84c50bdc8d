// Dynamic NTK: the base grows with the sequence length past max_position_embeddings (which transformers
// treats as the training length; original_max_position_embeddings is ignored).
#include <algorithm>
#include <cmath>

#include "methods.hpp"

namespace ropelens::rope_detail {

RopeTable compute_dynamic(const RopeSetup& setup, std::optional<std::int64_t> seq_len) {
  RopeTable table = unscaled_table(setup);
  double factor = setup.factor ? setup.factor->value : 1.0;
  double trained = static_cast<double>(setup.max_position_embeddings.value);
  double length = seq_len ? std::max(static_cast<double>(*seq_len), trained) : trained;
  int d = setup.rotary_dim;
  double base =
      setup.rope_theta.value * std::pow((factor * length / trained) - (factor - 1.0), static_cast<double>(d) / (d - 2));
  table.effective_theta = base;
  table.factor = factor;
  table.inv_freq = base_inverse_frequencies(base, d, d / 2);
  for (std::size_t i = 0; i < table.inv_freq.size(); ++i)
    table.bands[i] = table.inv_freq[i] == table.base_inv_freq[i] ? Band::kept : Band::scaled;
  return table;
}

}  // namespace ropelens::rope_detail
