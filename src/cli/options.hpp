// Internal: options shared by several subcommands.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include "choices.hpp"

#include "ropelens/memory/kv_cache.hpp"
#include "ropelens/check/check.hpp"
#include "ropelens/load/model_loader.hpp"
#include "ropelens/check/project_settings.hpp"

namespace ropelens::cli {

// A rule's code by its name, for examples in help text: codes are spelled only in the catalog.
std::string rule_code(std::string_view name);

// -j/--jobs N: threads for a scan, a whole number from 1 to 1024 (anything else is a usage error).
void add_jobs_option(CLI::App& cmd, unsigned& jobs);
// A list option: one value per occurrence (a following path stays a path), commas separating several
// (--select CTX201,CTX202 --select ROPE), as ruff takes them.
CLI::Option* add_list_option(CLI::App& cmd, const std::string& name, std::vector<std::string>& values,
                             const std::string& help);
void add_format_option(CLI::App& cmd, std::string& format, std::vector<std::string> choices);
void add_set_option(CLI::App& cmd, std::vector<std::string>& edits);
void add_engine_option(CLI::App& cmd, std::string& engine);
// --engine with its choices (every engine and "all") and the given help.
CLI::Option* add_engine_option(CLI::App& cmd, std::string& engine, const std::string& help);
void add_revision_option(CLI::App& cmd, std::optional<std::string>& revision);
void add_kv_dtype_option(CLI::App& cmd, std::string& dtype);
// --stack ENGINE[@VERSION],...: which engines and versions the engine rules, views and snippets cover.
void add_stack_option(CLI::App& cmd, std::vector<std::string>& stack);
// --tp N: the GPUs a model is split over (tensor parallelism); --memory is then one GPU's.
void add_tp_option(CLI::App& cmd, int& tp);
// The deployment: the stack given (else .ropelens.json's) resolved once, its versions placed in each engine's version
// table; what resolving noted (a release ropelens cannot place exactly) is printed as a warning.
Deployment deployment_option(const std::vector<std::string>& values, const ProjectSettings& settings);
std::vector<Edit> parse_edits(const std::vector<std::string>& specs);
// "" = the config's dtype; another value not a dtype is a usage error naming `label` and the nearest dtype.
std::optional<KvDtype> parse_kv_dtype_option(const std::string& dtype, std::string_view label);
// --memory SIZE as bytes; a bad size is a usage error naming the option.
std::int64_t parse_memory_option(const std::string& size);

// The PATH argument's help: files, folders and model ids.
inline constexpr const char* kPathHelp =
    "config.json, a model folder, a .gguf file, - for stdin, a Hugging Face id (Org/Name[@REV]) in the local cache, "
    "or ollama:NAME[:TAG]";

// A length in tokens: 131072, 128k, 1M or 1.5M (powers of 1024). A value that is not one says "not a number",
// one out of range says so.
CLI::Validator tokens_validator(std::int64_t min);
template <class T> CLI::Option* add_tokens_option(CLI::App& cmd, const std::string& name, T& value,
                                                  const std::string& help, std::int64_t min = 1) {
  return cmd.add_option(name, value, help)->transform(tokens_validator(min));
}

// --trained-length (and, where given, --extended-length): one definition for every command that audits, so check,
// table, diff, report, suggest and fit take the same length from the user.
CLI::Option* add_trained_length_option(CLI::App& cmd, std::optional<std::int64_t>& trained_length);
void add_training_options(CLI::App& cmd, std::optional<std::int64_t>& trained_length,
                          std::optional<std::int64_t>& extended_length);

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
void add_rule_options(CLI::App& cmd, RuleOptions& options);

struct ResolvedRuleOptions {
  CheckOptions check;
  Severity fail_on = Severity::warning;
};
// The settings file of the working directory (.ropelens.json there or in a parent) merged with the flags: what
// check, report and diff each run, so that they select, count and fail alike.
ResolvedRuleOptions resolve_check_options(const RuleOptions& options);
// Validates every selector (a typo is a usage error naming the nearest rule) and merges the settings.
ResolvedRuleOptions resolve_rule_options(const RuleOptions& options, const ProjectSettings& settings);

// Everything `check` runs with that makes sense without a terminal: its rule options and what it reads. The command
// (src/cli/check.cpp) binds each field to its flag; the Python module (python/src/module.cpp) to a keyword of
// ropelens.check, so both take the same options and resolve them with the same code. What only a terminal run has
// (--format, -o, --color, -q, --exit-zero, --write-baseline) stays in check.cpp.
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
void add_check_request_options(CLI::App& cmd, CheckRequest& request);
// The request resolved against the settings as check runs it (the command line: the working directory's).
ResolvedRuleOptions resolve_check_request(const CheckRequest& request, const ProjectSettings& settings);

// The exit code of a run: 2 when a file could not be read, else 1 when findings at these counts reach
// `fail_on` (unless --exit-zero), else 0.
struct FindingCounts {
  int errors = 0;
  int warnings = 0;
  int infos = 0;
};
int exit_code_for(bool unreadable, FindingCounts findings, Severity fail_on, bool exit_zero);

// "0,16,32" and ranges "29-34"; throws std::invalid_argument.
std::vector<int> parse_pair_list(const std::string& text);

}  // namespace ropelens::cli
