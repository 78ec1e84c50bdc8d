// The longest sequence whose KV cache fits a budget: a binary search over one cache layout, which rounds N up to its
// granularity itself, so the answer lands on a whole block, page or cell pad.
#include "ropelens/memory/fit.hpp"

namespace ropelens {

KvFit longest_kv_fit(const Model& model, KvLayout layout, KvDtype dtype, std::uint64_t kv_budget,
                     std::int64_t ceiling) {
  const kv_detail::CachingLayers layers = kv_detail::caching_layers(model);
  if (layers.not_computed || ceiling < 1) return {};
  auto bytes_at = [&](std::int64_t tokens) { return layout(layers, tokens, dtype).total_bytes; };
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
