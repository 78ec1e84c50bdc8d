// Position interpolation: every frequency divided by the factor.
#include "methods.hpp"

namespace ropelens::rope_detail {

RopeTable compute_linear(const RopeSetup& setup) {
  RopeTable table = unscaled_table(setup);
  table.factor = setup.factor ? setup.factor->value : 1.0;
  for (std::size_t i = 0; i < table.inv_freq.size(); ++i) {
    table.inv_freq[i] = table.base_inv_freq[i] / table.factor;
    table.bands[i] = table.factor == 1.0 ? Band::kept : Band::scaled;
  }
  return table;
}

}  // namespace ropelens::rope_detail
