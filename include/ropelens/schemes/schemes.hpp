// Position math for the schemes that are not plain RoPE: ALiBi slopes, T5 relative buckets,
// Llama 4's NoPE attention temperature, sinusoidal and learned absolute positions.
// Pure functions: no I/O. Invalid arguments throw std::invalid_argument.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "ropelens/model/model.hpp"

namespace ropelens {

// ---------------------------------------------------------------------------------------------
// ALiBi (BLOOM, MPT, Falcon with `alibi: true`)

// Per-head slopes in head order. With P the smallest power of two >= num_heads and
// s_k = 2^(-alibi_bias_max * k / P) for k = 1..P:
//   * num_heads == P: all s_k in order;
//   * otherwise: the even k first (s_2, s_4, …, s_P), then the odd k (s_1, s_3, …) until num_heads.
// This is MPT's gen_slopes. BLOOM's build_alibi_tensor (closest lower power of two n, slopes
// 2^(-8k/n), then the odd-indexed slopes of 2n) gives the same values in the same order for every
// head count; it is the alibi_bias_max = 8 case. The references evaluate in float32; these are
// float64 (BLOOM-176B's float32 slopes differ by at most 5e-7 relative).
std::vector<double> alibi_slopes(int num_heads, double alibi_bias_max = 8.0);
std::vector<double> alibi_slopes(const AlibiInfo& alibi);

// The bias ALiBi adds to the logit of a key distance_tokens behind the query: -slope * distance.
double alibi_bias(double slope, std::int64_t distance_tokens);

// The steepest and the shallowest head at the farthest distance of a target (target_tokens - 1).
// With interleaved slopes neither is necessarily the first or last head.
struct AlibiBiasAtTarget {
  int steepest_head = 0;
  double steepest_slope = 0.0;
  double steepest_bias = 0.0;
  int shallowest_head = 0;
  double shallowest_slope = 0.0;
  double shallowest_bias = 0.0;
};
AlibiBiasAtTarget alibi_bias_at_target(const std::vector<double>& slopes, std::int64_t target_tokens);

// ---------------------------------------------------------------------------------------------
// T5 relative position buckets (transformers `T5Attention._relative_position_bucket`)

// relative_position = key_position - query_position (negative: the key is in the past).
// Bidirectional (encoder): buckets [0, n/2) for the past and the token itself, [n/2, n) for the
// future. Causal (decoder self-attention): only the past, future keys land in bucket 0.
// The log part is evaluated in float32 and truncated, like transformers on CPU.
// Throws unless the half used has max_exact = half/2 >= 1, max_distance > max_exact, and
// num_buckets <= kMaxT5Buckets.
int t5_relative_bucket(std::int64_t relative_position, bool bidirectional, int num_buckets, int max_distance);

enum class T5Direction { past, future };  // past includes distance 0, the token itself

// The distances one bucket covers. Distances are >= 0 tokens in the span's direction.
struct T5BucketSpan {
  int bucket = 0;
  T5Direction direction = T5Direction::past;
  std::int64_t first_distance_tokens = 0;
  std::optional<std::int64_t> last_distance_tokens;  // nullopt: the direction's last bucket, unbounded
};

// Every used bucket in bucket order: the past half, then (bidirectional) the future half.
// Exact buckets near, log-spaced buckets far. Buckets no distance maps to are left out; in the
// bidirectional table that is always bucket num_buckets/2 (the future can't be at distance 0).
// Found by bisection within [0, max_distance]: every distance from max_distance on is in the
// direction's last bucket.
std::vector<T5BucketSpan> t5_bucket_spans(bool bidirectional, int num_buckets, int max_distance);
std::vector<T5BucketSpan> t5_bucket_spans(const T5Buckets& t5);

// The smallest distance that lands in the last bucket of a direction (same for past and future).
std::int64_t t5_last_bucket_first_distance(bool bidirectional, int num_buckets, int max_distance);

// How many of the distances 0..target_tokens-1 share the last bucket (per direction; the future
// direction has the same count, its distance 0 being in the past half). O(log max_distance).
std::int64_t distances_in_last_bucket(std::int64_t target_tokens, bool bidirectional, int num_buckets,
                                      int max_distance);

// ---------------------------------------------------------------------------------------------
// Llama 4 NoPE attention temperature (queries of NoPE layers are multiplied by it)

constexpr double kLlama4FloorScale = 8192.0;
constexpr double kLlama4AttnScale = 0.1;

// log1p(floor((position + 1) / floor_scale)) * attn_scale + 1, position 0-based.
// transformers evaluates it in float32; float64 here (identical floors below 2^24 positions).
double nope_attention_temperature(std::int64_t position, double floor_scale, double attn_scale);
double nope_attention_temperature(std::int64_t position, const NopeTemperature& tuning);

// At the last position of a target, target_tokens - 1.
double nope_attention_temperature_at_target(std::int64_t target_tokens, double floor_scale, double attn_scale);

// The first position whose temperature is above 1: ceil(floor_scale) - 1 (8191 for Llama 4).
std::int64_t nope_first_scaled_position(double floor_scale);

// ---------------------------------------------------------------------------------------------
// Sinusoidal absolute positions ("Attention Is All You Need"): PE(p, 2i) = sin(p * w_i), w_i below.

// w_i = 10000^(-2i/d_model) radians per token, for pair i in [0, ceil(d_model/2)).
double sinusoidal_inverse_frequency(int i, int d_model);
// 2π / w_i: tokens per full turn of pair i.
double sinusoidal_wavelength_tokens(int i, int d_model);
double sinusoidal_longest_wavelength_tokens(int d_model);

// ---------------------------------------------------------------------------------------------
// Learned absolute positions (GPT-2, BERT, OPT, BART)

// OPT, BART and mBART add 2 to every position id before the lookup: their table has
// usable + 2 rows while the usable positions stay 0..usable-1 (usable = max_position_embeddings).
constexpr int kOptBartPositionRowOffset = 2;

constexpr int learned_position_row_offset(std::string_view model_type) {
  return (model_type == "opt" || model_type == "bart" || model_type == "mbart") ? kOptBartPositionRowOffset : 0;
}

constexpr std::int64_t learned_position_table_rows(std::int64_t usable_positions, int row_offset) {
  return usable_positions + row_offset;
}

// Whether position (0-based) has its own row; the row offset does not change the answer.
constexpr bool learned_position_has_row(std::int64_t position, std::int64_t usable_positions) {
  return position >= 0 && position < usable_positions;
}

}  // namespace ropelens
