// Small pure computations the rules need that are not RoPE frequencies: key spelling, float32 angle
// precision, and the magnitudes engines derive from a setup. No I/O, no state.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "ropelens/model/model.hpp"

namespace ropelens {

// Optimal-string-alignment distance: insertions, deletions, substitutions and adjacent transpositions.
int edit_distance(std::string_view a, std::string_view b);

// The candidate nearest to `word` within `max_distance` edits (ties: the first listed); none when the
// word itself is a candidate or nothing is close enough.
std::optional<std::string_view> closest_spelling(std::string_view word, const std::vector<std::string_view>& candidates,
                                                 int max_distance);

// Keys transformers' validation accepts in a RoPE dict of this type (required, optional and the keys every
// type tolerates: rope_type, type, rope_theta, partial_rotary_factor, mrope_section, mrope_interleaved).
const std::vector<std::string_view>& rope_keys_read_by(RopeType type);
// Every key any type reads, in a fixed order.
const std::vector<std::string_view>& all_rope_keys();
// The types whose validation reads this key (empty for keys no type reads).
std::vector<RopeType> rope_types_reading(std::string_view key);

// The float32 rounding error of the angle position * inv_freq as transformers forms it (float32 inv_freq times
// float32 positions), against the exact product: the largest over the last `window` positions up to
// `last_position`, so one lucky position does not hide it. 0 for exactly representable products (inv_freq 1).
double float32_angle_error(double inv_freq, std::int64_t last_position, int window = 256);

struct AnglePrecision {
  int pair = 0;
  double angle_rad = 0.0;  // at last_position, exact
  double error_rad = 0.0;
};
// The pair with the largest float32_angle_error; zero-frequency pairs are skipped, and so are pairs whose
// error cannot exceed `only_above` (none left: nullopt).
std::optional<AnglePrecision> worst_angle_precision(const std::vector<double>& inv_freq, std::int64_t last_position,
                                                    double only_above = 0.0, int window = 256);

// DeepSeek-style attention: softmax scale multiplier mscale^2 with mscale = 0.1 * mscale_all_dim * ln(factor) + 1.
double mla_softmax_scale_multiplier(double factor, double mscale_all_dim);

// vLLM before PR #41277: the dynamic-NTK base computed once for a cache of factor * max_position_embeddings
// rows, theta * (factor^2 - factor + 1)^(d/(d-2)), used for every sequence length.
double vllm_static_dynamic_base(double theta, int rotary_dim, double factor);

// The smallest whole factor whose scaled length covers the target: ceil(target / original), at least 1.
std::int64_t smallest_covering_factor(std::int64_t target_tokens, std::int64_t original_tokens);

}  // namespace ropelens
