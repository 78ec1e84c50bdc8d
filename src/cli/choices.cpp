#include "choices.hpp"

#include <fmt/format.h>

#include "ropelens/log/log.hpp"

namespace ropelens::cli {

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

CLI::Validator one_of(const Choices& choices) {
  return CLI::Validator([choices](std::string& value) { return choice_refusal(choices, value); },
                        fmt::format("{{{}}}", fmt::join(choices.values, ",")));
}

}  // namespace ropelens::cli
