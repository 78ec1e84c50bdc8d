// Running the catalog: selection, severity overrides, ordering, and the check pipeline over files.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ropelens/engines.hpp"
#include "ropelens/input.hpp"
#include "ropelens/model_loader.hpp"
#include "ropelens/report.hpp"
#include "ropelens/rule.hpp"

namespace ropelens {

struct RuleSelection {
  std::vector<std::string> select;  // codes, names or prefixes; empty = all
  std::vector<std::string> ignore;
  std::map<std::string, Severity> severity;  // per code or name
};

bool rule_matches(const RuleMeta& meta, const std::string& selector);
bool rule_selected(const RuleMeta& meta, const RuleSelection& selection);

// Runs every selected rule on one context; findings sorted by pointer then code.
std::vector<Diagnostic> run_rules(const Context& context, const RuleSelection& selection);

struct CheckOptions {
  std::optional<std::int64_t> target_tokens;  // none: each model's declared length
  AuditOptions audit;
  RuleSelection selection;
  std::vector<Edit> edits;  // --set, applied to every file
  std::vector<Engine> engines;  // --engine: add each file's engine views to the report
};

// `unedited`: the same config without the --set edits, when there were any.
FileResult check_model(Model model, const std::string& text, const CheckOptions& options,
                       const Model* unedited = nullptr);
// Checks every file under the paths in sorted order, handing each result to `on_file` as soon as it is
// ready, so memory stays flat however many files there are.
CheckCounts check_paths_streaming(const std::vector<std::string>& paths, const CheckOptions& options,
                                  const std::function<void(FileResult&&)>& on_file);

// A checked file reduced to its part of the output. The full result is freed by the worker that built it:
// freeing it on the writing thread made glibc's allocator a tenth of a directory scan.
struct RenderedFile {
  std::string path;
  std::optional<std::string> error;  // the file could not be read
  CheckCounts counts;                // this file's findings
  std::string part;
};
// The same, with each file's output rendered by `render` on the worker thread that checked it (`render`
// must not touch shared state); `on_file` still receives the files in sorted order.
CheckCounts check_paths_streaming(const std::vector<std::string>& paths, const CheckOptions& options,
                                  const std::function<std::string(const FileResult&)>& render,
                                  const std::function<void(RenderedFile&&)>& on_file);
// The same, collected (for tests and small inputs).
CheckReport check_paths(const std::vector<std::string>& paths, const CheckOptions& options);

// Project settings from .ropelens.json in the working directory or its nearest parent.
struct ProjectSettings {
  std::optional<std::string> path;
  std::optional<std::int64_t> target_tokens;
  std::optional<Severity> fail_on;
  RuleSelection selection;
};
ProjectSettings load_project_settings(const std::string& start_directory);

}  // namespace ropelens
