#include "choices.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "ropelens/engines/engine.hpp"
#include "ropelens/log/log.hpp"
#include "ropelens/model/text.hpp"

namespace ropelens::cli {
namespace {

std::string refusal(const Choices& choices, const std::string& value) {
  return fmt::format("'{}' is not one of {}{}", value, fmt::join(choices.values, ", "),
                     did_you_mean(value, choices.values));
}

bool contains(const Choices& choices, const std::string& value) {
  return std::find(choices.values.begin(), choices.values.end(), value) != choices.values.end();
}

}  // namespace

const Choices& kv_dtype_choices() {
  static const Choices choices{{"bf16", "f16", "f32", "fp8", "q8_0", "q4_0"}};
  return choices;
}

const Choices& severity_choices() {
  static const Choices choices{{"error", "warning", "info"}};
  return choices;
}

const Choices& color_choices() {
  static const Choices choices{{"auto", "always", "never"}};
  return choices;
}

const Choices& log_level_choices() {
  static const Choices choices{std::vector<std::string>(logging::kLevelNames.begin(), logging::kLevelNames.end())};
  return choices;
}

const Choices& generate_choices() {
  static const Choices choices{{"man", "bash", "zsh", "fish"}};
  return choices;
}

Choices engine_choice_list() {
  const auto engines = engine_choices();
  return {std::vector<std::string>(engines.begin(), engines.end())};
}

Choices format_choices(std::vector<std::string> formats) { return {std::move(formats)}; }

const std::string& chosen(const Choices& choices, const std::string& value, std::string_view label) {
  if (contains(choices, value)) return value;
  const std::string message = refusal(choices, value);
  throw std::invalid_argument(label.empty() ? message : fmt::format("{}: {}", label, message));
}

CLI::Validator one_of(const Choices& choices) {
  return CLI::Validator(
      [choices](std::string& value) { return contains(choices, value) ? std::string() : refusal(choices, value); },
      fmt::format("{{{}}}", fmt::join(choices.values, ",")));
}

}  // namespace ropelens::cli
