#include <algorithm>

#include <fmt/format.h>

#include "ropelens/engines/kv_cache.hpp"
#include "ropelens/engines/registry.hpp"
#include "ropelens/model/units.hpp"
#include "../support.hpp"

namespace ropelens::rules {
namespace ctx210 {

// One GPU's part of the window-aware KV cache over --tp GPUs: ceil(total / tp), the least any engine keeps on one
// (heads replicated when there are fewer than GPUs keep more).
static std::uint64_t cache_per_gpu(const KvCacheReport& kv, int tp) {
  const auto gpus = static_cast<std::uint64_t>(std::max(1, tp));
  return (kv.cache.total_bytes + gpus - 1) / gpus;
}

// "KV cache 18.00 GiB at 131072 tokens (bf16)", with "; 9.00 GiB per GPU over --tp 2" when split: the
// window-aware KV cache at the target.
static std::string cache_text(const KvCacheReport& kv, int tp) {
  std::string text =
      fmt::format("KV cache {} at {} tokens ({})", format_bytes(static_cast<std::int64_t>(kv.cache.total_bytes)),
                  kv.tokens, to_string(kv.dtype));
  if (tp > 1)
    text += fmt::format(", at least {} per GPU over --tp {}",
                        format_bytes(static_cast<std::int64_t>(cache_per_gpu(kv, tp))), tp);
  return text;
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
  const std::uint64_t cache = cache_per_gpu(kv, cx.tensor_parallel);
  const std::uint64_t left = budget - cache;
  with_facts(out.report_as(Severity::warning, pointer,
                           fmt::format("the weights' size is unknown (no model.safetensors or "
                                       "model.safetensors.index.json beside the config): the {} alone leaves {} of "
                                       "the memory budget {} for the weights",
                                       cache_text(kv, cx.tensor_parallel),
                                       format_bytes(static_cast<std::int64_t>(left)), format_bytes(*cx.memory_budget))),
             kv, cache, budget, cx.target_tokens)
      .help(
          "check the folder that holds the safetensors weights (or a GGUF file), so that the weights are counted; "
          "the model fits only if its weights, activations and the engine's buffers fit in what is left");
}

// One engine's need at the target on one GPU, as fit computes its budget (engine_budget: the engine's default share
// of --memory, its part of the weights as it holds them, its cache layout split over --tp GPUs).
struct EngineNeed {
  EngineBudget budget;
  std::uint64_t kv_bytes = 0;
  std::uint64_t needed() const { return budget.split.weights_per_gpu + kv_bytes; }
};

// "vLLM 30.96 GiB (weights 14.96 GiB + KV cache 16.00 GiB f16) > 22.08 GiB (0.92 × 24.00 GiB)"
static std::string need_text(const EngineNeed& need, std::uint64_t memory) {
  const auto bytes = [](std::uint64_t value) { return format_bytes(static_cast<std::int64_t>(value)); };
  std::string text = fmt::format("{} {} (weights {} + KV cache {} {}) > {}", display_name(need.budget.engine),
                                 bytes(need.needed()), bytes(need.budget.split.weights_per_gpu), bytes(need.kv_bytes),
                                 to_string(need.budget.kv_dtype), bytes(need.budget.split.usable));
  if (!need.budget.share.formula.empty())
    text += fmt::format(" ({:.4g} × {}: {})", need.budget.share.fraction, bytes(memory), need.budget.share.formula);
  return text;
}

static void check(const Context& cx, Sink& out) {
  if (!cx.memory_budget) return;
  const KvCacheReport kv = kv_cache_at(cx.model, {cx.target_tokens, cx.kv_dtype});
  if (kv.not_computed) return;
  const auto budget = static_cast<std::uint64_t>(*cx.memory_budget);
  const std::string pointer = kv.dtype_from.pointer;
  if (!kv.weights_bytes) {
    const std::uint64_t cache = cache_per_gpu(kv, cx.tensor_parallel);
    if (cache <= budget) report_weights_unknown(kv, budget, cx, pointer, out);
    else
      with_facts(out.report(pointer, fmt::format("{} alone exceeds the memory budget {}",
                                                 cache_text(kv, cx.tensor_parallel), format_bytes(*cx.memory_budget))),
                 kv, cache, budget, cx.target_tokens)
          .help("serve a shorter context, a smaller KV-cache dtype (--kv-dtype fp8 or q8_0), or more memory");
    return;
  }
  std::vector<EngineNeed> over;
  for (Engine engine : cx.deployment.served()) {
    EngineNeed need;
    need.budget = engine_budget(cx.model, engine, budget_request(cx));
    if (need.budget.cache_flag.unsupported || !need.budget.weights_bytes) continue;
    need.kv_bytes = engine_kv_bytes(cx.model, engine, need.budget.kv_dtype, cached_tokens(cx), cx.tensor_parallel);
    if (need.needed() > need.budget.split.usable) over.push_back(std::move(need));
  }
  if (over.empty()) return;
  std::vector<std::string> texts;
  std::vector<std::string> names;
  std::vector<std::string> keys;
  for (const EngineNeed& need : over) {
    texts.push_back(need_text(need, budget));
    names.emplace_back(display_name(need.budget.engine));
    keys.emplace_back(engine_row(need.budget.engine).name);
  }
  const std::string per_gpu =
      cx.tensor_parallel > 1 ? fmt::format(" per GPU (--tp {})", cx.tensor_parallel) : std::string();
  Finding finding = out.report(
      pointer,
      fmt::format("at {} tokens, weights plus the KV cache exceed what {} may use of the memory budget {}{}: {}",
                  cx.target_tokens, fmt::join(names, ", "), format_bytes(*cx.memory_budget), per_gpu,
                  fmt::join(texts, "; ")));
  finding.fact("needed_bytes", over.front().needed())
      .fact("budget_bytes", over.front().budget.split.usable)
      .fact("kv_cache_bytes", over.front().kv_bytes)
      .fact("target", cx.target_tokens)
      .fact("engines", keys)
      .help(
          "serve a shorter context (ropelens fit gives the longest that fits each engine), a smaller KV-cache "
          "dtype (--kv-dtype fp8 or q8_0), more memory, or more GPUs (--tp)");
}

}  // namespace ctx210

extern const Rule CTX210{{"CTX210", "memory-over-budget", Severity::error,
                          "Weights plus the KV cache at the target exceed the memory budget (--memory)"},
                         &ctx210::check};

}  // namespace ropelens::rules
