// LongRoPE: per-pair divisors, the short list up to the original length and the long list beyond it.
#include <cmath>

#include "methods.hpp"

namespace ropelens::rope_detail {
namespace {

double longrope_attention_factor(const RopeSetup& setup, double factor, double original) {
  if (setup.longrope.attention_factor) return setup.longrope.attention_factor->value;
  if (factor <= 1.0) return 1.0;
  return std::sqrt(1.0 + std::log(factor) / std::log(original));
}

}  // namespace

RopeTable compute_longrope(const RopeSetup& setup, std::optional<std::int64_t> seq_len) {
  RopeTable table = unscaled_table(setup);
  const double declared = static_cast<double>(setup.max_position_embeddings.value);
  const double original = setup.original_max_position_embeddings
                              ? static_cast<double>(setup.original_max_position_embeddings->value)
                              : declared;
  const double factor = setup.factor ? setup.factor->value : declared / original;
  table.factor = factor;
  table.attention_factor = longrope_attention_factor(setup, factor, original);
  table.long_factors = seq_len && static_cast<double>(*seq_len) > original;
  const auto& divisors = table.long_factors ? setup.longrope.long_factor.value : setup.longrope.short_factor.value;
  const std::vector<double> powers =
      base_powers(setup.rope_theta.value, setup.rotary_dim, static_cast<int>(table.inv_freq.size()));
  for (std::size_t i = 0; i < table.inv_freq.size(); ++i) {
    double divisor = i < divisors.size() ? divisors[i] : 1.0;  // a short list is reported as CFG005
    table.inv_freq[i] = 1.0 / (divisor * powers[i]);
    table.bands[i] = divisor == 1.0 ? Band::kept : Band::scaled;
  }
  return table;
}

}  // namespace ropelens::rope_detail
