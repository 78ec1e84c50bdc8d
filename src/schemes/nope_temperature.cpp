#include <cmath>
#include <stdexcept>

#include "ropelens/schemes/schemes.hpp"

namespace ropelens {

namespace {

void require_valid_floor_scale(double floor_scale) {
  if (!std::isfinite(floor_scale) || floor_scale <= 0.0)
    throw std::invalid_argument("nope temperature: floor_scale must be finite and > 0");
}

}  // namespace

double nope_attention_temperature(std::int64_t position, double floor_scale, double attn_scale) {
  require_valid_floor_scale(floor_scale);
  if (position < 0) throw std::invalid_argument("nope temperature: position must be >= 0");
  const double floor_steps = std::floor((static_cast<double>(position) + 1.0) / floor_scale);
  return std::log1p(floor_steps) * attn_scale + 1.0;
}

double nope_attention_temperature(std::int64_t position, const NopeTemperature& tuning) {
  return nope_attention_temperature(position, tuning.floor_scale.value, tuning.attn_scale.value);
}

double nope_attention_temperature_at_target(std::int64_t target_tokens, double floor_scale, double attn_scale) {
  if (target_tokens < 1) throw std::invalid_argument("nope temperature: target_tokens must be >= 1");
  return nope_attention_temperature(target_tokens - 1, floor_scale, attn_scale);
}

std::int64_t nope_first_scaled_position(double floor_scale) {
  require_valid_floor_scale(floor_scale);
  // floor((p + 1) / s) >= 1  <=>  p + 1 >= s  <=>  p >= ceil(s) - 1
  return static_cast<std::int64_t>(std::ceil(floor_scale)) - 1;
}

}  // namespace ropelens
