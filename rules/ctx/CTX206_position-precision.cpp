#include <fmt/format.h>

#include "../support.hpp"
#include "ropelens/analysis/analysis.hpp"

namespace ropelens::rules {
namespace ctx206 {

constexpr double kThresholdRad = 0.01;

static void check(const Context& cx, Sink& out) {
  if (cx.target_tokens < 2) return;
  const std::int64_t position = cx.target_tokens - 1;
  for (int i : distinct_dict_setups(cx.model)) {
    const SetupAudit& a = cx.audit.setups[static_cast<std::size_t>(i)];
    auto worst = worst_angle_precision(a.at_target.inv_freq, position, kThresholdRad);
    if (!worst || worst->error_rad <= kThresholdRad) continue;
    const RopeSetup& s = cx.model.setups[static_cast<std::size_t>(i)];
    out.report(pointer_or(s.rope_theta.from, s.pointer),
               fmt::format("{}at {} tokens the float32 angle of pair {} ({:.0f} rad at position {}) carries up to "
                           "{:.3f} rad of rounding error, above {} rad",
                           setup_prefix(cx.model, i), cx.target_tokens, worst->pair, worst->angle_rad, position,
                           worst->error_rad, kThresholdRad))
        .help("compute the RoPE angles in float64, or relative to a nearby base position, for targets this long")
        .fact("position", position)
        .fact("pair", worst->pair)
        .fact("angle_rad", worst->angle_rad)
        .fact("error_rad", worst->error_rad)
        .fact("threshold_rad", kThresholdRad);
  }
}

}  // namespace ctx206

extern const Rule CTX206{{"CTX206", "position-precision", Severity::info,
                          "float32 rounding of the RoPE angle exceeds 0.01 rad at the target", DefaultSet::opt_in},
                         &ctx206::check};

}  // namespace ropelens::rules
