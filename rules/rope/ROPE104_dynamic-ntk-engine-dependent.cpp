#include <fmt/format.h>

#include "../support.hpp"
#include "ropelens/analysis/analysis.hpp"

namespace ropelens::rules {
namespace rope104 {

static void check(const Context& cx, Sink& out) {
  for (int i : distinct_dict_setups(cx.model)) {
    const auto index = static_cast<std::size_t>(i);
    const RopeSetup& s = cx.model.setups[index];
    if (s.type != RopeType::dynamic || !s.factor) continue;
    const double factor = s.factor->value;
    const double theta = s.rope_theta.value;
    const auto declared = s.max_position_embeddings.value;
    const double at_target = cx.audit.setups[index].at_target.effective_theta;
    const double vllm_static = vllm_static_dynamic_base(theta, s.rotary_dim, factor);
    std::string transformers = cx.target_tokens > declared
                                   ? fmt::format("{} at {} tokens", number(at_target), cx.target_tokens)
                                   : fmt::format("unchanged at the {}-token target", cx.target_tokens);
    out.report(pointer_or(s.rope_type_name.from, s.pointer),
               fmt::format("dynamic NTK factor {} runs differently per engine: transformers raises base {} per "
                           "sequence beyond {} tokens ({}), vLLM fixes one base for every length ({} before PR "
                           "#41277, {} after), llama.cpp converts it to plain RoPE",
                           number(factor), number(theta), declared, transformers, number(vllm_static), number(theta)))
        .help(
            "test each engine you deploy at short and long lengths, or switch to a static method (yarn with "
            "original_max_position_embeddings) that engines agree on")
        .fact("factor", factor)
        .fact("rope_theta", theta)
        .fact("transformers_base_at_target", at_target)
        .fact("vllm_static_base", vllm_static)
        .fact("llama_cpp_base", theta);
  }
}

}  // namespace rope104

extern const Rule ROPE104{{"ROPE104", "dynamic-ntk-engine-dependent", Severity::warning,
                           "Dynamic NTK scaling behaves differently in every engine"},
                          &rope104::check};

}  // namespace ropelens::rules
