#include <fmt/format.h>

#include "../support.hpp"
#include "ropelens/analysis/analysis.hpp"

namespace ropelens::rules {
namespace rope107 {

static void check(const Context& cx, Sink& out) {
  if (!scales_softmax_by_mscale(cx.model)) return;
  for (int i : distinct_dict_setups(cx.model)) {
    const RopeSetup& s = cx.model.setups[static_cast<std::size_t>(i)];
    const auto& y = s.yarn;
    if (s.type != RopeType::yarn || !s.factor || s.factor->value <= 1.0 || !y.mscale || !y.mscale_all_dim) continue;
    if (y.mscale->value == 0.0 || y.mscale->value != y.mscale_all_dim->value || y.attention_factor) continue;
    const double factor = s.factor->value;
    const double multiplier = mla_softmax_scale_multiplier(factor, y.mscale_all_dim->value);
    out.report(y.mscale_all_dim->from.pointer,
               fmt::format("mscale {} equals mscale_all_dim {}, so the rope magnitude is 1.0: the YaRN temperature "
                           "lives in the softmax scale instead, ×{:.3f} (mscale² at factor {})",
                           number(y.mscale->value), number(y.mscale_all_dim->value), multiplier, number(factor)))
        .help(fmt::format("check that your engine multiplies the softmax scale by {:.3f} (vLLM deepseek_yarn, "
                          "llama.cpp deepseek2 with yarn_log_multiplier 0.1 × mscale_all_dim)",
                          multiplier))
        .related(y.mscale->from.pointer)
        .fact("rope_attention_factor", cx.tables[static_cast<std::size_t>(i)].attention_factor)
        .fact("softmax_scale_multiplier", multiplier)
        .fact("factor", factor);
  }
}

}  // namespace rope107

extern const Rule ROPE107{
    {"ROPE107", "softmax-scale-outside-rope", Severity::info,
     "The YaRN temperature is applied in the softmax scale, not in cos and sin", DefaultSet::opt_in},
    &rope107::check};

}  // namespace ropelens::rules
