#include <cmath>

#include <fmt/format.h>

#include "ropelens/schemes/schemes.hpp"
#include "../support.hpp"

namespace ropelens::rules {
namespace ctx209 {

static void check(const Context& cx, Sink& out) {
  const Model& model = cx.model;
  if (!model.nope_temperature || model.nope_temperature->enabled) return;
  const std::vector<int> nope = model.nope_layers();
  if (nope.empty()) return;
  const NopeTemperature& tuning = *model.nope_temperature;
  const double floor_scale = tuning.floor_scale.value;
  const double attn_scale = tuning.attn_scale.value;
  const std::int64_t target = cx.target_tokens;
  const std::int64_t first_scaled = nope_first_scaled_position(floor_scale);
  if (target < 1 || target - 1 < first_scaled) return;  // the tuned temperature would still be 1 at T-1
  const double temperature = nope_attention_temperature_at_target(target, floor_scale, attn_scale);
  const auto steps = static_cast<std::int64_t>(std::floor(static_cast<double>(target) / floor_scale));

  out.report(
         pointer_or(tuning.enabled_from, model.text_pointer + "/attn_temperature_tuning"),
         fmt::format("attn_temperature_tuning is off: at {} tokens {} of {} layers (NoPE layers {}) attend "
                     "globally with unscaled queries, where the tuning would multiply them by {} at position {} "
                     "(log1p(floor({}/{}))·{}+1 = ln({})·{}+1); it stays 1 only up to position {}",
                     target, nope.size(), model.layers.size(), index_ranges(nope), number(temperature), target - 1,
                     target, number(floor_scale), number(attn_scale), steps + 1, number(attn_scale), first_scaled - 1))
      .help(fmt::format("set attn_temperature_tuning to true if the checkpoint was trained with it (Llama 4 was), or "
                        "keep inputs within {} tokens, where the temperature is 1 either way",
                        first_scaled))
      .fact("target", target)
      .fact("nope_layers", nope)
      .fact("floor_scale", floor_scale)
      .fact("attn_scale", attn_scale)
      .fact("first_scaled_position", first_scaled)
      .fact("temperature_at_target", temperature);
}

}  // namespace ctx209

extern const Rule CTX209{{"CTX209", "nope-without-temperature-tuning", Severity::warning,
                          "NoPE layers run without attention temperature tuning at a target where it would scale "
                          "their queries"},
                         &ctx209::check};

}  // namespace ropelens::rules
