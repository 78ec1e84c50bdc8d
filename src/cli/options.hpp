// Internal: options shared by several subcommands.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include "choices.hpp"
#include "ropelens/documents/options.hpp"
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

// The option structs and parsers of the core (documents/options.hpp), under the names the commands and the Python
// module use.
using ropelens::CheckRequest;
using ropelens::parse_edits;
using ropelens::parse_kv_dtype_option;
using ropelens::parse_memory_option;
using ropelens::parse_pair_list;
using ropelens::resolve_check_request;
using ropelens::resolve_rule_options;
using ropelens::ResolvedRuleOptions;
using ropelens::RuleOptions;

void add_rule_options(CLI::App& cmd, RuleOptions& options);

// The settings file of the working directory (.ropelens.json there or in a parent) merged with the flags
// (resolve_rule_options): what check, report and diff each run, so that they select, count and fail alike. What
// resolving the stack noted is printed as a warning.
ResolvedRuleOptions resolve_check_options(const RuleOptions& options);

// check's flags bound to the request (documents/options.hpp), which resolve_check_request resolves.
void add_check_request_options(CLI::App& cmd, CheckRequest& request);
// resolve_check_request, with what resolving the stack noted printed as warnings: what check and the Python module's
// check run.
ResolvedRuleOptions resolve_check_command(const CheckRequest& request, const ProjectSettings& settings);

// The exit code of a run: 2 when a file could not be read, else 1 when findings at these counts reach
// `fail_on` (unless --exit-zero), else 0.
struct FindingCounts {
  int errors = 0;
  int warnings = 0;
  int infos = 0;
};
int exit_code_for(bool unreadable, FindingCounts findings, Severity fail_on, bool exit_zero);

}  // namespace ropelens::cli
