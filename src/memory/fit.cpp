// The longest sequence whose KV cache fits a budget: a binary search over one cache layout, which rounds N up to its
// granularity itself, so the answer lands on a whole block, page or cell pad. The budget is one GPU's: the engine's
// share of it, less the reserve and that GPU's part of the weights.
#include "ropelens/memory/fit.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace ropelens {

std::uint64_t kv_bytes_per_gpu(const kv_detail::CachingLayers& layers, KvLayout layout, KvDtype dtype,
                               std::int64_t tokens, KvSplit split) {
  const int gpus = std::max(1, split.gpus);
  if (split.by_heads)
    return layout(gpus > 1 ? kv_detail::sharded_by_heads(layers, gpus) : layers, tokens, dtype).total_bytes;
  const std::uint64_t total = layout(layers, tokens, dtype).total_bytes;
  return (total + static_cast<std::uint64_t>(gpus) - 1) / static_cast<std::uint64_t>(gpus);
}

BudgetSplit split_budget(const GpuBudget& budget) {
  BudgetSplit out;
  const auto taken = static_cast<std::uint64_t>(std::floor(static_cast<double>(budget.gpu_bytes) * budget.share));
  out.usable = taken > budget.reserve_bytes ? taken - budget.reserve_bytes : 0;
  const auto gpus = static_cast<std::uint64_t>(std::max(1, budget.gpus));
  out.weights_per_gpu = (budget.weights_bytes + gpus - 1) / gpus;
  out.weights_exceed = out.weights_per_gpu > out.usable;
  out.kv_budget = out.weights_exceed ? 0 : out.usable - out.weights_per_gpu;
  return out;
}

KvFit longest_kv_fit(const Model& model, KvLayout layout, KvDtype dtype, std::uint64_t kv_budget, std::int64_t ceiling,
                     KvSplit split) {
  kv_detail::CachingLayers layers = kv_detail::caching_layers(model);
  if (layers.not_computed || ceiling < 1) return {};
  if (split.by_heads && split.gpus > 1) {
    layers = kv_detail::sharded_by_heads(std::move(layers), split.gpus);
    split.gpus = 1;
  }
  auto bytes_at = [&](std::int64_t tokens) { return kv_bytes_per_gpu(layers, layout, dtype, tokens, split); };
  if (const std::uint64_t at_ceiling = bytes_at(ceiling); at_ceiling <= kv_budget) return {ceiling, at_ceiling};
  std::int64_t fits = 0;  // invariant: fits fits (0 tokens always does), ceiling does not
  std::int64_t fails = ceiling;
  while (fails - fits > 1) {
    const std::int64_t middle = fits + (fails - fits) / 2;
    (bytes_at(middle) <= kv_budget ? fits : fails) = middle;
  }
  return {fits, fits == 0 ? 0 : bytes_at(fits)};
}

}  // namespace ropelens
