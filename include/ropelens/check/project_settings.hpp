// .ropelens.json: the defaults a working tree sets for check.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ropelens/check/check.hpp"
#include "ropelens/model/diagnostic.hpp"
#include "ropelens/input/input.hpp"

namespace ropelens {

// Project settings from .ropelens.json in the working directory or its nearest parent.
struct ProjectSettings {
  std::optional<std::string> path;
  std::string directory;  // the folder holding the file: exclude globs with a slash are relative to it
  std::optional<std::int64_t> target_tokens;
  std::optional<Severity> fail_on;
  RuleSelection selection;
  std::optional<std::vector<std::string>> exclude;  // replaces default_exclude_globs()
  std::vector<std::string> extend_exclude;          // added to them
  std::optional<std::int64_t> memory_budget;        // "memory": bytes, or a size such as "80GiB" (CTX210)
  Stack stack;                                      // "stack": ["vllm@main", "llama.cpp"]; empty: every engine
  std::vector<TrainedLengthRule> trained_lengths;   // "trained_length": {"models/qwen/*": 131072}
};
ProjectSettings load_project_settings(const std::string& start_directory);
// The settings in one file already read; throws InputError naming the file and the key.
ProjectSettings parse_project_settings(const Document& document);

// What directory scans leave out: `exclude` (or the defaults), `extend_exclude`, then the globs given on the
// command line (relative to the working directory).
ScanFilter scan_filter(const ProjectSettings& settings, const std::vector<std::string>& command_line_excludes);
ProjectSettings load_project_settings(const std::string& start_directory);

}  // namespace ropelens
