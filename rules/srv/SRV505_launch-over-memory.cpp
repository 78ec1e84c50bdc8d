// SRV505: the launch's weights and KV cache at the length it serves, per GPU under its tensor parallelism, against
// the share of --memory (per GPU) its memory fraction leaves.
#include <algorithm>

#include <fmt/format.h>

#include "ropelens/engines/kv_cache.hpp"
#include "ropelens/model/units.hpp"
#include "../support.hpp"

namespace ropelens::rules {
namespace srv505 {

static void check(const Context& cx, Sink& out) {
  if (!cx.launch || !cx.memory_budget) return;
  const Launch& launch = *cx.launch;
  const KvCacheReport kv = kv_cache_at(cx.model, {launch.served_tokens, cx.kv_dtype});
  if (kv.not_computed || !kv.weights_bytes) return;  // CTX210 says what it can without the weights
  const auto tp = static_cast<double>(std::max<std::int64_t>(1, launch.tensor_parallel));
  // KV heads split over the GPUs, replicated when there are fewer heads than GPUs.
  const auto& shape = cx.model.kv;
  const int heads = shape.num_kv_heads          ? shape.num_kv_heads->value
                    : shape.num_attention_heads ? shape.num_attention_heads->value
                                                : 1;
  const double kv_heads = static_cast<double>(std::max(1, heads));
  const double kv_share = std::max(1.0 / tp, 1.0 / kv_heads);
  const double weights = static_cast<double>(kv.weights_bytes->value) / tp;
  const double cache = static_cast<double>(kv.cache.total_bytes) * kv_share;
  const double fraction = launch.memory_fraction.value_or(launch.default_memory_fraction.value_or(1.0));
  const double usable = static_cast<double>(*cx.memory_budget) * fraction;
  if (weights + cache <= usable) return;
  const auto bytes = [](double b) { return format_bytes(static_cast<std::int64_t>(b)); };
  out.report("",
             fmt::format("per GPU (tensor parallel {}): weights {} + KV cache {} at {} tokens ({}) = {} exceeds "
                         "{} × {} = {} of --memory {}",
                         launch.tensor_parallel, bytes(weights), bytes(cache), launch.served_tokens,
                         to_string(kv.dtype), bytes(weights + cache), bytes(static_cast<double>(*cx.memory_budget)),
                         fmt::format("{:g}", fraction), bytes(usable), bytes(static_cast<double>(*cx.memory_budget))))
      .help("serve a shorter context, a smaller KV-cache dtype, more tensor parallelism, or GPUs with more memory")
      .fact("needed_bytes_per_gpu", static_cast<std::int64_t>(weights + cache))
      .fact("usable_bytes_per_gpu", static_cast<std::int64_t>(usable))
      .fact("served_tokens", launch.served_tokens)
      .fact("tensor_parallel", launch.tensor_parallel)
      .fact("memory_fraction", fraction);
}

}  // namespace srv505

extern const Rule SRV505{{"SRV505", "launch-over-memory", Severity::error,
                          "The launch does not fit --memory at the length, memory fraction and tensor parallelism it "
                          "sets"},
                         &srv505::check};

}  // namespace ropelens::rules
