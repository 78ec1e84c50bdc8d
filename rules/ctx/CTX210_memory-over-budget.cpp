#include <fmt/format.h>

#include "ropelens/engines/kv_cache.hpp"
#include "ropelens/model/units.hpp"
#include "../support.hpp"

namespace ropelens::rules {
namespace ctx210 {

// "KV cache 18.00 GiB at 131072 tokens (bf16)": the window-aware KV cache at the target.
static std::string cache_text(const KvCacheReport& kv) {
  return fmt::format("KV cache {} at {} tokens ({})", format_bytes(static_cast<std::int64_t>(kv.cache.total_bytes)),
                     kv.tokens, to_string(kv.dtype));
}

// What the budget has to hold: the KV cache, plus the weights when their size is known.
static std::string needed_text(const KvCacheReport& kv) {
  const std::string cache = cache_text(kv);
  if (!kv.weights_bytes) return cache + " (weights' size unknown, not counted)";
  return fmt::format("weights {} + {}", format_bytes(static_cast<std::int64_t>(kv.weights_bytes->value)), cache);
}

static Finding with_facts(Finding finding, const KvCacheReport& kv, std::uint64_t needed, std::uint64_t budget,
                          std::int64_t target) {
  finding.fact("needed_bytes", needed)
      .fact("budget_bytes", budget)
      .fact("kv_cache_bytes", kv.cache.total_bytes)
      .fact("target", target);
  return finding;
}

// Without the weights' size the budget cannot be checked: say so, with what the KV cache alone leaves of it.
static void report_weights_unknown(const KvCacheReport& kv, std::uint64_t budget, const Context& cx,
                                   const std::string& pointer, Sink& out) {
  const std::uint64_t left = budget - kv.cache.total_bytes;
  with_facts(out.report_as(Severity::warning, pointer,
                           fmt::format("the weights' size is unknown (no model.safetensors or "
                                       "model.safetensors.index.json beside the config): the {} alone leaves {} of "
                                       "the memory budget {} for the weights",
                                       cache_text(kv), format_bytes(static_cast<std::int64_t>(left)),
                                       format_bytes(*cx.memory_budget))),
             kv, kv.cache.total_bytes, budget, cx.target_tokens)
      .help(
          "check the folder that holds the safetensors weights (or a GGUF file), so that the weights are counted; "
          "the model fits only if its weights, activations and the engine's buffers fit in what is left");
}

static void check(const Context& cx, Sink& out) {
  if (!cx.memory_budget) return;
  const KvCacheReport kv = kv_cache_at(cx.model, {cx.target_tokens, cx.kv_dtype});
  if (kv.not_computed) return;
  const std::uint64_t needed = kv.cache.total_bytes + (kv.weights_bytes ? kv.weights_bytes->value : 0);
  const auto budget = static_cast<std::uint64_t>(*cx.memory_budget);
  const std::string pointer = kv.dtype_from.pointer;
  if (needed > budget) {
    with_facts(out.report(pointer, fmt::format("{} = {} exceeds the memory budget {}", needed_text(kv),
                                               format_bytes(static_cast<std::int64_t>(needed)),
                                               format_bytes(*cx.memory_budget))),
               kv, needed, budget, cx.target_tokens)
        .help("serve a shorter context, a smaller KV-cache dtype (--kv-dtype fp8 or q8_0), or more memory");
    return;
  }
  if (!kv.weights_bytes) {
    report_weights_unknown(kv, budget, cx, pointer, out);
    return;
  }
  const std::uint64_t left = budget - needed;
  if (left * 10 < budget)
    with_facts(
        out.report_as(Severity::warning, pointer,
                      fmt::format("{} = {} leaves {} of the memory budget {} (less than 10 %)", needed_text(kv),
                                  format_bytes(static_cast<std::int64_t>(needed)),
                                  format_bytes(static_cast<std::int64_t>(left)), format_bytes(*cx.memory_budget))),
        kv, needed, budget, cx.target_tokens)
        .help(
            "leave room for activations and the engine's own buffers: a shorter context, a smaller KV-cache "
            "dtype, or more memory");
}

}  // namespace ctx210

extern const Rule CTX210{{"CTX210", "memory-over-budget", Severity::error,
                          "Weights plus the KV cache at the target exceed the memory budget (--memory)"},
                         &ctx210::check};

}  // namespace ropelens::rules
