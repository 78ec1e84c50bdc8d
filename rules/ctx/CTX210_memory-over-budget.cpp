#include <fmt/format.h>

#include "ropelens/model/units.hpp"
#include "../support.hpp"

namespace ropelens::rules {

// What the budget has to hold: the window-aware KV cache at the target, plus the weights when their size is known.
static std::string needed_text(const KvCacheReport& kv) {
  const std::string cache =
      fmt::format("KV cache {} at {} tokens ({})", format_bytes(static_cast<std::int64_t>(kv.cache.total_bytes)),
                  kv.tokens, to_string(kv.dtype));
  if (!kv.weights_bytes) return cache + " (weights' size unknown, not counted)";
  return fmt::format("weights {} + {}", format_bytes(static_cast<std::int64_t>(kv.weights_bytes->value)), cache);
}

static void check(const Context& cx, Sink& out) {
  if (!cx.memory_budget) return;
  const KvCacheReport kv = kv_cache_at(cx.model, {cx.target_tokens, cx.kv_dtype});
  if (kv.not_computed) return;
  const std::uint64_t needed = kv.cache.total_bytes + (kv.weights_bytes ? kv.weights_bytes->value : 0);
  const auto budget = static_cast<std::uint64_t>(*cx.memory_budget);
  const std::string pointer = kv.dtype_from.pointer;
  if (needed > budget) {
    out.report(pointer, fmt::format("{} = {} exceeds the memory budget {}", needed_text(kv),
                                    format_bytes(static_cast<std::int64_t>(needed)), format_bytes(*cx.memory_budget)))
        .help("serve a shorter context, a smaller KV-cache dtype (--kv-dtype fp8 or q8_0), or more memory")
        .fact("needed_bytes", needed)
        .fact("budget_bytes", budget)
        .fact("kv_cache_bytes", kv.cache.total_bytes)
        .fact("target", cx.target_tokens);
    return;
  }
  const std::uint64_t left = budget - needed;
  if (left * 10 < budget)
    out.report_as(Severity::warning, pointer,
                  fmt::format("{} = {} leaves {} of the memory budget {} (less than 10 %)", needed_text(kv),
                              format_bytes(static_cast<std::int64_t>(needed)),
                              format_bytes(static_cast<std::int64_t>(left)), format_bytes(*cx.memory_budget)))
        .help(
            "leave room for activations and the engine's own buffers: a shorter context, a smaller KV-cache "
            "dtype, or more memory")
        .fact("needed_bytes", needed)
        .fact("budget_bytes", budget)
        .fact("kv_cache_bytes", kv.cache.total_bytes)
        .fact("target", cx.target_tokens);
}

extern const Rule CTX210{{"CTX210", "memory-over-budget", Severity::error,
                          "Weights plus the KV cache at the target exceed the memory budget (--memory)"},
                         &check};

}  // namespace ropelens::rules
