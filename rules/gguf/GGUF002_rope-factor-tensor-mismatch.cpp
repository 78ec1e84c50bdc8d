#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "../support.hpp"

namespace ropelens::rules {
namespace gguf002 {

constexpr std::string_view kHelp = "reconvert the model so the factor tensor has rotary_dim/2 positive values";

static void check_size(const GgufFactorTensor& tensor, int rotary_dim, Sink& out) {
  const auto pairs = static_cast<std::size_t>(rotary_dim / 2);
  const auto size = tensor.values.size();
  if (size == pairs) return;
  out.report(tensor.pointer,
             fmt::format("{} has {} values but rotary_dim {} needs {} (one per pair); {}", tensor.name, size,
                         rotary_dim, pairs,
                         size < pairs ? "llama.cpp refuses to run it (modeled with factors of 1 for the missing pairs)"
                                      : "llama.cpp ignores the extra values"))
      .help(std::string(kHelp));
}

static void check_values(const GgufFactorTensor& tensor, Sink& out) {
  const auto& values = tensor.values;
  auto bad = std::find_if(values.begin(), values.end(), [](float v) { return !std::isfinite(v) || v <= 0.0f; });
  if (bad == values.end()) return;
  out.report(tensor.pointer, fmt::format("{}[{}] is {}: per-pair factors must be finite and positive", tensor.name,
                                         bad - values.begin(), *bad))
      .help(std::string(kHelp));
}

static void check(const Context& cx, Sink& out) {
  if (!cx.model.gguf || cx.model.setups.empty()) return;
  const int rotary_dim = cx.model.setups.front().rotary_dim;  // every setup of a GGUF file rotates the same dims
  for (const auto& tensor : cx.model.gguf->factor_tensors) {
    check_size(tensor, rotary_dim, out);
    check_values(tensor, out);
  }
}

}  // namespace gguf002

extern const Rule GGUF002{{"GGUF002", "rope-factor-tensor-mismatch", Severity::error,
                           "A per-pair RoPE factor tensor does not have one finite, positive value per rotary pair"},
                          &gguf002::check};

}  // namespace ropelens::rules
