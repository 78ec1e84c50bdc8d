#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "ropelens/schemes/schemes.hpp"

namespace ropelens {

namespace {

// The buckets of one direction: distances 0..max_exact-1 get one bucket each, the rest share
// log-spaced buckets up to max_distance.
struct HalfBuckets {
  int count = 0;
  int max_exact = 0;
  int max_distance = 0;

  int last() const { return count - 1; }
};

HalfBuckets half_buckets(bool bidirectional, int num_buckets, int max_distance) {
  if (num_buckets > kMaxT5Buckets) throw std::invalid_argument("t5 buckets: num_buckets above kMaxT5Buckets");
  HalfBuckets half;
  half.count = bidirectional ? num_buckets / 2 : num_buckets;
  half.max_exact = half.count / 2;
  half.max_distance = max_distance;
  if (half.max_exact < 1)
    throw std::invalid_argument(bidirectional ? "t5 buckets: bidirectional needs num_buckets >= 4"
                                              : "t5 buckets: causal needs num_buckets >= 2");
  if (max_distance <= half.max_exact)
    throw std::invalid_argument("t5 buckets: max_distance must exceed the exact buckets (per-direction buckets / 2)");
  return half;
}

// transformers: max_exact + (log(n.float() / max_exact) / math.log(max_distance / max_exact)
//               * (num_buckets - max_exact)).to(long), all tensor arithmetic in float32.
// The float32 rounding decides the bucket where the real value is an integer, e.g. 48 buckets,
// max_distance 81, distance 36: exactly 8 in real numbers, 7.9999995 in float32.
int log_bucket(std::int64_t distance_tokens, const HalfBuckets& half) {
  const int log_buckets = half.count - half.max_exact;
  const float ratio = static_cast<float>(distance_tokens) / static_cast<float>(half.max_exact);
  const auto log_range = static_cast<float>(std::log(static_cast<double>(half.max_distance) / half.max_exact));
  const float scaled = std::log(ratio) / log_range * static_cast<float>(log_buckets);
  if (!(scaled < static_cast<float>(log_buckets))) return half.last();  // also keeps the cast in range
  return std::min(half.max_exact + static_cast<int>(scaled), half.last());
}

int bucket_in_half(std::int64_t distance_tokens, const HalfBuckets& half) {
  if (distance_tokens < half.max_exact) return static_cast<int>(distance_tokens);
  return log_bucket(distance_tokens, half);
}

std::int64_t saturating_magnitude(std::int64_t value) {
  if (value == std::numeric_limits<std::int64_t>::min()) return std::numeric_limits<std::int64_t>::max();
  return value < 0 ? -value : value;
}

// The first distance in (below, at_or_above] whose bucket reaches `bucket`, given that
// at_or_above does. Buckets never decrease with distance, so bisection finds the edge.
std::int64_t first_distance_reaching(int bucket, std::int64_t below, std::int64_t at_or_above,
                                     const HalfBuckets& half) {
  while (at_or_above - below > 1) {
    const std::int64_t middle = below + (at_or_above - below) / 2;
    if (bucket_in_half(middle, half) >= bucket) at_or_above = middle;
    else below = middle;
  }
  return at_or_above;
}

void append_direction(std::vector<T5BucketSpan>& spans, const HalfBuckets& half, T5Direction direction,
                      int bucket_offset) {
  // The future half starts at distance 1: relative position 0 belongs to the past half.
  std::int64_t distance = direction == T5Direction::future ? 1 : 0;
  while (true) {
    const int bucket = bucket_in_half(distance, half);
    // From max_distance on every distance is in the last bucket, which bounds the search.
    if (bucket == half.last() || distance >= half.max_distance) {
      spans.push_back({bucket_offset + bucket, direction, distance, std::nullopt});
      return;
    }
    const std::int64_t next = first_distance_reaching(bucket + 1, distance, half.max_distance, half);
    spans.push_back({bucket_offset + bucket, direction, distance, next - 1});
    distance = next;
  }
}

}  // namespace

int t5_relative_bucket(std::int64_t relative_position, bool bidirectional, int num_buckets, int max_distance) {
  const HalfBuckets half = half_buckets(bidirectional, num_buckets, max_distance);
  if (bidirectional) {
    const int future_offset = relative_position > 0 ? half.count : 0;
    return future_offset + bucket_in_half(saturating_magnitude(relative_position), half);
  }
  const std::int64_t distance_tokens = relative_position < 0 ? saturating_magnitude(relative_position) : 0;
  return bucket_in_half(distance_tokens, half);
}

std::vector<T5BucketSpan> t5_bucket_spans(bool bidirectional, int num_buckets, int max_distance) {
  const HalfBuckets half = half_buckets(bidirectional, num_buckets, max_distance);
  std::vector<T5BucketSpan> spans;
  append_direction(spans, half, T5Direction::past, 0);
  if (bidirectional) append_direction(spans, half, T5Direction::future, half.count);
  return spans;
}

std::vector<T5BucketSpan> t5_bucket_spans(const T5Buckets& t5) {
  return t5_bucket_spans(t5.bidirectional, t5.num_buckets.value, t5.max_distance.value);
}

std::int64_t t5_last_bucket_first_distance(bool bidirectional, int num_buckets, int max_distance) {
  const HalfBuckets half = half_buckets(bidirectional, num_buckets, max_distance);
  return first_distance_reaching(half.last(), 0, half.max_distance, half);
}

std::int64_t distances_in_last_bucket(std::int64_t target_tokens, bool bidirectional, int num_buckets,
                                      int max_distance) {
  const std::int64_t first = t5_last_bucket_first_distance(bidirectional, num_buckets, max_distance);
  return std::max<std::int64_t>(0, target_tokens - first);
}

}  // namespace ropelens
