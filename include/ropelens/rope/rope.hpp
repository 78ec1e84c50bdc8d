// RoPE math: pure functions from one setup (and a sequence length) to per-pair frequencies.
// Semantics follow transformers v5 `modeling_rope_utils.py`, evaluated in float64.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ropelens/model/model.hpp"

namespace ropelens {

// What the scaling did to one pair.
enum class Band { kept, interpolated, scaled, zero };
std::string_view to_string(Band band);

struct RopeTable {
  std::vector<double> base_inv_freq;  // theta_i = rope_theta^(-2i/d), before scaling
  std::vector<double> inv_freq;       // effective, after scaling
  std::vector<Band> bands;
  double attention_factor = 1.0;         // magnitude applied to cos and sin (logits scale by its square)
  double effective_theta = 0.0;          // the base actually used (differs from rope_theta for dynamic NTK)
  double factor = 1.0;                   // the scaling factor the method used (1 when none)
  std::optional<double> correction_low;  // yarn ramp bounds, in pair indices
  std::optional<double> correction_high;
  bool long_factors = false;  // longrope: the long factor set is active
  std::int64_t seq_len = 0;   // the sequence length evaluated (0 = none given)
};

// Per-setup table at an optional sequence length (dynamic NTK and longrope depend on it).
RopeTable compute_rope_table(const RopeSetup& setup, std::optional<std::int64_t> seq_len = std::nullopt);

// theta^(-2i/exponent_dim) for i in [0, pairs).
std::vector<double> base_inverse_frequencies(double theta, int exponent_dim, int pairs);
// theta^(2i/exponent_dim) for i < pairs: the divisors behind base_inverse_frequencies.
std::vector<double> base_powers(double theta, int exponent_dim, int pairs);

// NTK-aware base: theta * scale^(d/(d-2)).
double ntk_aware_base(double theta, int rotary_dim, double scale);

// 0.1 * m * ln(s) + 1 for s > 1, else 1 (YaRN's mscale).
double yarn_mscale(double scale, double m = 1.0);

constexpr double kTwoPi = 6.283185307179586476925286766559;

}  // namespace ropelens
