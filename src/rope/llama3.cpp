// Llama 3: wavelengths shorter than original/high_freq_factor are kept, longer than original/low_freq_factor
// divided by the factor, and the band between is blended smoothly.
#include "methods.hpp"

namespace ropelens::rope_detail {

RopeTable compute_llama3(const RopeSetup& setup) {
  RopeTable table = unscaled_table(setup);
  const double factor = setup.factor ? setup.factor->value : 1.0;
  const double low = setup.llama3.low_freq_factor.value;
  const double high = setup.llama3.high_freq_factor.value;
  const double original =
      static_cast<double>(setup.original_max_position_embeddings ? setup.original_max_position_embeddings->value
                                                                 : setup.max_position_embeddings.value);
  const double low_freq_wavelen = original / low;
  const double high_freq_wavelen = original / high;
  table.factor = factor;
  for (std::size_t i = 0; i < table.inv_freq.size(); ++i) {
    const double inv = table.base_inv_freq[i];
    const double wavelen = kTwoPi / inv;
    if (wavelen < high_freq_wavelen) {
      table.bands[i] = Band::kept;
    } else if (wavelen > low_freq_wavelen) {
      table.inv_freq[i] = inv / factor;
      table.bands[i] = Band::scaled;
    } else {
      const double smooth = (original / wavelen - low) / (high - low);
      table.inv_freq[i] = (1.0 - smooth) * inv / factor + smooth * inv;
      table.bands[i] = Band::interpolated;
    }
  }
  return table;
}

}  // namespace ropelens::rope_detail
