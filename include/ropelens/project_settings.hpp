// .ropelens.json: the defaults a working tree sets for check.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "ropelens/check.hpp"
#include "ropelens/diagnostic.hpp"
#include "ropelens/input.hpp"

namespace ropelens {

// Project settings from .ropelens.json in the working directory or its nearest parent.
struct ProjectSettings {
  std::optional<std::string> path;
  std::optional<std::int64_t> target_tokens;
  std::optional<Severity> fail_on;
  RuleSelection selection;
};
ProjectSettings load_project_settings(const std::string& start_directory);
// The settings in one file already read; throws InputError naming the file and the key.
ProjectSettings parse_project_settings(const Document& document);

}  // namespace ropelens
