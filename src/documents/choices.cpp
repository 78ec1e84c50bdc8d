#include "ropelens/documents/choices.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "ropelens/engines/engine.hpp"
#include "ropelens/model/text.hpp"

namespace ropelens {

const Choices& kv_dtype_choices() {
  static const Choices choices{{"bf16", "f16", "f32", "fp8", "q8_0", "q4_0"}};
  return choices;
}

const Choices& severity_choices() {
  static const Choices choices{{"error", "warning", "info"}};
  return choices;
}

Choices engine_choice_list() {
  const auto engines = engine_choices();
  return {std::vector<std::string>(engines.begin(), engines.end())};
}

Choices format_choices(std::vector<std::string> formats) { return {std::move(formats)}; }

std::string choice_refusal(const Choices& choices, const std::string& value) {
  if (std::find(choices.values.begin(), choices.values.end(), value) != choices.values.end()) return {};
  return fmt::format("'{}' is not one of {}{}", value, fmt::join(choices.values, ", "),
                     did_you_mean(value, choices.values));
}

const std::string& chosen(const Choices& choices, const std::string& value, std::string_view label) {
  const std::string refusal = choice_refusal(choices, value);
  if (refusal.empty()) return value;
  throw std::invalid_argument(label.empty() ? refusal : fmt::format("{}: {}", label, refusal));
}

}  // namespace ropelens
