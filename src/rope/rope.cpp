#include <array>
#include <cmath>

#include "methods.hpp"

namespace ropelens {

std::string_view to_string(Band band) {
  switch (band) {
    case Band::kept: return "kept";
    case Band::interpolated: return "interpolated";
    case Band::scaled: return "scaled";
    case Band::zero: return "zero";
  }
  return "kept";
}

namespace {

std::vector<double> compute_base_powers(double theta, int exponent_dim, int pairs) {
  std::vector<double> out(static_cast<std::size_t>(std::max(pairs, 0)));
  for (int i = 0; i < pairs; ++i) {
    double exponent = static_cast<double>(2 * i) / exponent_dim;  // arange(0, d, 2) / d
    out[static_cast<std::size_t>(i)] = std::pow(theta, exponent);
  }
  return out;
}

// One check computes the same base powers for the audit, the rules and every engine view; pow() was a
// fifth of a directory scan. A few recent results per thread are kept (bit-identical, so nothing changes).
class RecentBasePowers {
 public:
  const std::vector<double>& get(double theta, int exponent_dim, int pairs) {
    for (const auto& entry : entries_)
      if (entry.theta == theta && entry.exponent_dim == exponent_dim && entry.pairs == pairs && entry.filled)
        return entry.values;
    Entry& slot = entries_[next_++ % entries_.size()];
    slot = {theta, exponent_dim, pairs, true, compute_base_powers(theta, exponent_dim, pairs)};
    return slot.values;
  }

 private:
  struct Entry {
    double theta = 0.0;
    int exponent_dim = 0;
    int pairs = 0;
    bool filled = false;
    std::vector<double> values;
  };
  std::array<Entry, 8> entries_{};
  std::size_t next_ = 0;
};

}  // namespace

std::vector<double> base_powers(double theta, int exponent_dim, int pairs) {
  thread_local RecentBasePowers recent;
  return recent.get(theta, exponent_dim, pairs);
}

std::vector<double> base_inverse_frequencies(double theta, int exponent_dim, int pairs) {
  std::vector<double> out = base_powers(theta, exponent_dim, pairs);
  for (double& value : out) value = 1.0 / value;
  return out;
}

double ntk_aware_base(double theta, int rotary_dim, double scale) {
  return theta * std::pow(scale, static_cast<double>(rotary_dim) / (rotary_dim - 2));
}

double yarn_mscale(double scale, double m) { return scale <= 1.0 ? 1.0 : 0.1 * m * std::log(scale) + 1.0; }

// Divisors applied after the method (RopeSetup::frequency_divisors); a pair a divisor changes is scaled.
static void divide_by(const std::vector<double>& divisors, RopeTable& table) {
  for (std::size_t i = 0; i < table.inv_freq.size() && i < divisors.size(); ++i) {
    table.inv_freq[i] /= divisors[i];
    if (divisors[i] != 1.0 && table.bands[i] == Band::kept) table.bands[i] = Band::scaled;
  }
}

RopeTable compute_rope_table(const RopeSetup& setup, std::optional<std::int64_t> seq_len) {
  using namespace rope_detail;
  RopeTable table;
  switch (setup.type) {
    case RopeType::default_rope: table = compute_default(setup); break;
    case RopeType::linear: table = compute_linear(setup); break;
    case RopeType::dynamic: table = compute_dynamic(setup, seq_len); break;
    case RopeType::yarn: table = compute_yarn(setup); break;
    case RopeType::longrope: table = compute_longrope(setup, seq_len); break;
    case RopeType::llama3: table = compute_llama3(setup); break;
    case RopeType::proportional: table = compute_proportional(setup); break;
  }
  if (setup.frequency_divisors) divide_by(setup.frequency_divisors->value, table);
  table.seq_len = seq_len.value_or(0);
  return table;
}

namespace rope_detail {

RopeTable unscaled_table(const RopeSetup& setup) {
  RopeTable table;
  int pairs = setup.rotary_dim / 2;
  table.base_inv_freq = base_inverse_frequencies(setup.rope_theta.value, setup.rotary_dim, pairs);
  table.inv_freq = table.base_inv_freq;
  table.bands.assign(table.inv_freq.size(), Band::kept);
  table.effective_theta = setup.rope_theta.value;
  return table;
}

RopeTable compute_default(const RopeSetup& setup) { return unscaled_table(setup); }

}  // namespace rope_detail
}  // namespace ropelens
