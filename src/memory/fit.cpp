// The longest sequence whose KV cache fits a budget: a binary search over the engine layouts of kv_engines.cpp,
// which round N up to the engine's granularity themselves, so the answer lands on a whole block, page or cell pad.
#include "ropelens/memory/fit.hpp"

#include "ropelens/memory/kv_layers.hpp"

namespace ropelens {

std::int64_t kv_granularity(Engine engine) {
  switch (engine) {
    case Engine::transformers: return 1;
    case Engine::vllm: return kv_detail::kVllmBlockTokens;
    case Engine::sglang: return kv_detail::kSglangPageTokens;
    case Engine::llama_cpp: return kv_detail::kLlamaCppPadding;
  }
  return 1;
}

KvFit longest_kv_fit(const Model& model, Engine engine, KvDtype dtype, std::uint64_t kv_budget, std::int64_t ceiling) {
  const kv_detail::CachingLayers layers = kv_detail::caching_layers(model);
  if (layers.not_computed || ceiling < 1) return {};
  auto bytes_at = [&](std::int64_t tokens) {
    return kv_detail::engine_view(engine, layers, tokens, dtype).total_bytes;
  };
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
