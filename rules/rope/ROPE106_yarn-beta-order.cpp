#include <fmt/format.h>

#include "../support.hpp"

namespace ropelens::rules {
namespace rope106 {

static void check(const Context& cx, Sink& out) {
  for (int i : distinct_dict_setups(cx.model)) {
    const auto index = static_cast<std::size_t>(i);
    const RopeSetup& s = cx.model.setups[index];
    if (s.type != RopeType::yarn) continue;
    const double fast = s.yarn.beta_fast.value, slow = s.yarn.beta_slow.value;
    // Equal betas are a deliberate hard cut (Kimi-K2 trains with 1 and 1): transformers' validation warns only
    // when beta_fast < beta_slow, and every engine computes the same one-pair step.
    if (fast >= slow) continue;
    const RopeTable& table = cx.tables[index];
    const double low = table.correction_low.value_or(0.0), high = table.correction_high.value_or(0.0);
    std::string effect =
        pair_figures_missing(cx)  // which pairs the ramp spans needs a head_dim (CFG003 says it is missing)
            ? std::string("the ramp between kept and scaled pairs runs backwards")
            : fmt::format(
                  "the correction range runs backwards, from pair {} down to pair {}, reversing the ramp between "
                  "kept and scaled pairs",
                  number(low), number(high));
    out.report(pointer_or(s.yarn.beta_fast.from, pointer_or(s.yarn.beta_slow.from, s.pointer)),
               fmt::format("yarn beta_fast {} is below beta_slow {}: {}", number(fast), number(slow), effect))
        .help("swap the values: beta_fast (default 32) must exceed beta_slow (default 1)")
        .related(pointer_or(s.yarn.beta_slow.from, s.pointer))
        .fact("beta_fast", fast)
        .fact("beta_slow", slow);
  }
}

}  // namespace rope106

extern const Rule ROPE106{{"ROPE106", "yarn-beta-order", Severity::error, "yarn beta_fast is below beta_slow"},
                          &rope106::check};

}  // namespace ropelens::rules
