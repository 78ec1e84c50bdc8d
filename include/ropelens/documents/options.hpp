// The options of the commands as a person gives them (lengths, sizes, lists and selectors as text), resolved once
// into what the core runs. The command line binds its flags to these structs; `import ropelens` and the WebAssembly
// module fill them from their arguments, so every front end resolves an option the same way.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ropelens/check/check.hpp"
#include "ropelens/check/project_settings.hpp"
#include "ropelens/documents/choices.hpp"
#include "ropelens/engines/deployment.hpp"
#include "ropelens/load/model_loader.hpp"
#include "ropelens/memory/kv_cache.hpp"
#include "ropelens/model/diagnostic.hpp"

namespace ropelens {

// --set POINTER=JSON, each (std::invalid_argument for a bad one).
std::vector<Edit> parse_edits(const std::vector<std::string>& specs);
// --kv-dtype: "" is the config's dtype; another value not a dtype is std::invalid_argument naming `label` and the
// nearest dtype.
std::optional<KvDtype> parse_kv_dtype_option(const std::string& dtype, std::string_view label);
// --memory SIZE as bytes; a bad size is std::invalid_argument naming the option.
std::int64_t parse_memory_option(const std::string& size);
// --pairs: "0,16,32" and ranges "29-34"; throws std::invalid_argument.
std::vector<int> parse_pair_list(const std::string& text);
// --stack ENGINE[@VERSION],... (else the settings' stack, else every engine) resolved into the deployment, its
// versions placed in each engine's version table. What resolving noted (a release ropelens cannot place exactly) is
// in the deployment's notes, for the caller to show.
Deployment resolve_stack_option(const std::vector<std::string>& values, const ProjectSettings& settings);

// What check and diff share: the target, which rules run at which severity, what fails the run, and what
// directory scans leave out. Flags win over .ropelens.json.
struct RuleOptions {
  std::optional<std::int64_t> target;
  std::optional<std::int64_t> trained_length;
  std::optional<std::int64_t> extended_length;
  std::string fail_on;
  std::vector<std::string> select;
  std::vector<std::string> extend_select;
  std::vector<std::string> ignore;
  std::vector<std::string> severity;
  std::vector<std::string> exclude;
  std::string memory;              // --memory SIZE ("" = .ropelens.json's, else none)
  int tp = 1;                      // --tp N: GPUs for --memory's budget
  std::string kv_dtype;            // --kv-dtype ("" = the config's dtype)
  std::vector<std::string> stack;  // --stack ENGINE[@VERSION],... (empty = .ropelens.json's, else every engine)
};

struct ResolvedRuleOptions {
  CheckOptions check;
  Severity fail_on = Severity::warning;
};
// Validates every selector (a typo is std::invalid_argument naming the nearest rule) and merges the settings.
ResolvedRuleOptions resolve_rule_options(const RuleOptions& options, const ProjectSettings& settings);

// Everything `check` runs with that makes sense without a terminal: its rule options and what it reads. The command
// (src/cli/check.cpp) binds each field to its flag, the Python module (python/src/module.cpp) to a keyword of
// ropelens.check and the WebAssembly module (web/src/module.cpp) to an option, so all take the same options and
// resolve them with the same code. What only a terminal run has (--format, -o, --color, -q, --exit-zero,
// --write-baseline) stays in check.cpp.
struct CheckRequest {
  RuleOptions rules;                    // --target … --stack, --tp, --memory, --kv-dtype, --fail-on
  std::vector<std::string> edits;       // --set POINTER=JSON
  std::string engine;                   // --engine
  std::optional<std::string> revision;  // --revision
  std::optional<std::string> source;    // --source: the config GGUF files were converted from
  std::vector<std::string> serve;       // --serve: launch lines ("-": read from stdin)
  std::optional<std::string> model;     // --model: the model launch lines run
  std::string baseline;                 // --baseline FILE
  bool force_exclude = false;           // --force-exclude
  unsigned jobs = 0;                    // -j: 0 = the cores available
};
// The request resolved against the settings as check runs it (the command line: the working directory's). What
// resolving the stack noted is in the deployment's notes, for the caller to show.
ResolvedRuleOptions resolve_check_request(const CheckRequest& request, const ProjectSettings& settings);

}  // namespace ropelens
