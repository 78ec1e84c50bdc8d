#include <fmt/format.h>

#include "ropelens/schemes/schemes.hpp"
#include "../support.hpp"

namespace ropelens::rules {
namespace ctx208 {

static void check(const Context& cx, Sink& out) {
  const Model& model = cx.model;
  if (!model.t5) return;
  const T5Buckets& t5 = *model.t5;
  const int buckets = t5.num_buckets.value;
  const int max_distance = t5.max_distance.value;
  const std::int64_t target = cx.target_tokens;
  if (target <= max_distance) return;  // every distance 0..T-1 stays below max_distance, in its designed bucket

  // Per direction: the last bucket, the first distance in it and how many of the distances 0..T-1 it holds.
  const int half = buckets / 2;
  const std::int64_t bi_first = t5_last_bucket_first_distance(true, buckets, max_distance);
  const std::int64_t bi_count = distances_in_last_bucket(target, true, buckets, max_distance);
  const std::int64_t causal_first = t5_last_bucket_first_distance(false, buckets, max_distance);
  const std::int64_t causal_count = distances_in_last_bucket(target, false, buckets, max_distance);
  const std::int64_t farthest = target - 1;
  const std::int64_t beyond = target - max_distance;  // distances max_distance..T-1, past the log-spaced range

  const Origin origin = t5.max_distance.from.origin;
  const std::string source = origin == Origin::config      ? ""
                             : origin == Origin::defaulted ? " (the transformers default)"
                                                           : fmt::format(" ({})", t5.max_distance.from.describe());
  const std::string pointer =
      pointer_or(t5.max_distance.from, pointer_or(t5.num_buckets.from, pointer_or(model.model_type.from, "")));
  out.report(pointer,
             fmt::format("at {} tokens T5 relative buckets cannot tell distances apart beyond relative_attention_max_"
                         "distance {}{}: in the encoder (bidirectional) {} distances ({}–{}) share bucket {} (past) "
                         "and bucket {} (future); in the decoder (causal) {} distances ({}–{}) share bucket {}",
                         target, max_distance, source, bi_count, bi_first, farthest, half - 1, 2 * half - 1,
                         causal_count, causal_first, farthest, buckets - 1))
      .help(fmt::format("attention sees one position bias for every token {} or more apart, so order and distance "
                        "among far tokens come from content alone; keep what must be related by position within {} "
                        "tokens, or split inputs into chunks of about {} tokens",
                        max_distance, max_distance, max_distance))
      .fact("target", target)
      .fact("num_buckets", buckets)
      .fact("max_distance", max_distance)
      .fact("distances_beyond_max_distance", beyond)
      .fact("bidirectional_last_buckets", std::vector<int>{half - 1, 2 * half - 1})
      .fact("bidirectional_first_distance", bi_first)
      .fact("bidirectional_distances_in_last_bucket", bi_count)
      .fact("causal_last_bucket", buckets - 1)
      .fact("causal_first_distance", causal_first)
      .fact("causal_distances_in_last_bucket", causal_count);
}

}  // namespace ctx208

extern const Rule CTX208{{"CTX208", "t5-distance-collapse", Severity::info,
                          "The target spans distances beyond relative_attention_max_distance, which T5 buckets "
                          "cannot tell apart",
                          DefaultSet::opt_in},
                         &ctx208::check};

}  // namespace ropelens::rules
