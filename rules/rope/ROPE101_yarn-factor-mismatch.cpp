#include <cmath>

#include <fmt/format.h>

#include "../support.hpp"

namespace ropelens::rules {
namespace rope101 {

static void check(const Context& cx, Sink& out) {
  for (int i : distinct_dict_setups(cx.model)) {
    const RopeSetup& s = cx.model.setups[static_cast<std::size_t>(i)];
    if (s.type != RopeType::yarn || !s.factor || !s.original_max_position_embeddings) continue;
    const auto& original = *s.original_max_position_embeddings;
    if (original.from.origin == Origin::derived) continue;  // filled with the declared length: ratio 1 (CFG009)
    const auto declared = s.max_position_embeddings.value;
    const double ratio = static_cast<double>(declared) / static_cast<double>(original.value);
    const double factor = s.factor->value;
    if (std::abs(ratio - 1.0) < 1e-9 || std::abs(factor - ratio) <= 1e-9 * factor) continue;
    const auto vllm_tokens = static_cast<std::int64_t>(std::ceil(static_cast<double>(original.value) * factor));
    out.report(s.factor->from.pointer,
               fmt::format(
                   "yarn factor {} disagrees with max_position_embeddings {} / original_max_position_embeddings "
                   "{} = {}: transformers v5 uses {}, 4.48–4.5x used {}, vLLM serves {} tokens",
                   number(factor), declared, original.value, number(ratio), number(factor), number(ratio), vllm_tokens))
        .help(fmt::format("set max_position_embeddings to {} (original × factor) if the model is meant to serve that "
                          "length, or set factor to {}",
                          vllm_tokens, number(ratio)))
        .related(s.max_position_embeddings.from.pointer)
        .related(original.from.pointer)
        .fact("factor", factor)
        .fact("implicit_factor", ratio)
        .fact("max_position_embeddings", declared)
        .fact("original_max_position_embeddings", original.value)
        .fact("vllm_max_model_len", vllm_tokens);
  }
}

}  // namespace rope101

extern const Rule ROPE101{{"ROPE101", "yarn-factor-mismatch", Severity::warning,
                           "The yarn factor disagrees with max_position_embeddings / original_max_position_embeddings"},
                          &rope101::check};

}  // namespace ropelens::rules
