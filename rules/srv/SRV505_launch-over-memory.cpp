// SRV505: the launch's weights and KV cache at the length it serves, per GPU under its tensor parallelism, against
// what its memory fraction leaves of --memory (per GPU). The budget is fit's and CTX210's (engine_budget through
// budget_request): the launch's fraction, cache dtype and tensor parallelism in place of the defaults.
#include <algorithm>

#include <fmt/format.h>

#include "ropelens/engines/kv_cache.hpp"
#include "ropelens/model/units.hpp"
#include "../support.hpp"

namespace ropelens::rules {
namespace srv505 {

static std::string bytes(std::uint64_t value) { return format_bytes(static_cast<std::int64_t>(value)); }

static void check(const Context& cx, Sink& out) {
  if (!cx.launch || !cx.memory_budget) return;
  const Launch& launch = *cx.launch;
  const BudgetRequest request = budget_request(cx);
  const int gpus = request.gpus;
  const auto memory = request.gpu_bytes;
  const EngineBudget budget = engine_budget(cx.model, launch.engine, request);
  if (budget.cache_flag.unsupported || !budget.weights_bytes) return;  // CTX210 says what it can without the weights
  const std::int64_t tokens = cached_tokens(cx);
  const std::uint64_t cache = engine_kv_bytes(cx.model, launch.engine, budget.kv_dtype, tokens, gpus);
  const std::uint64_t needed = budget.split.weights_per_gpu + cache;
  if (needed <= budget.split.usable) return;
  out.report("", fmt::format("per GPU (tensor parallel {}): weights {} + KV cache {} at {} tokens ({}) = {} exceeds "
                             "{} × {} = {} of --memory {}",
                             gpus, bytes(budget.split.weights_per_gpu), bytes(cache), tokens,
                             to_string(budget.kv_dtype), bytes(needed), fmt::format("{:g}", budget.share.fraction),
                             bytes(memory), bytes(budget.split.usable), bytes(memory)))
      .at_flag(launch.length_flag.empty() ? launch.memory_flag : launch.length_flag)
      .help("serve a shorter context, a smaller KV-cache dtype, more tensor parallelism, or GPUs with more memory")
      .fact("needed_bytes_per_gpu", needed)
      .fact("usable_bytes_per_gpu", budget.split.usable)
      .fact("served_tokens", launch.served_tokens)
      .fact("tensor_parallel", gpus)
      .fact("memory_fraction", budget.share.fraction);
}

}  // namespace srv505

extern const Rule SRV505{{"SRV505", "launch-over-memory", Severity::error,
                          "The launch does not fit --memory at the length, memory fraction and tensor parallelism it "
                          "sets"},
                         &srv505::check};

}  // namespace ropelens::rules
