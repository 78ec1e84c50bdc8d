#include "options.hpp"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <stdexcept>

#include <fmt/format.h>

#include "choices.hpp"
#include "exit_codes.hpp"
#include "commands.hpp"
#include "ropelens/engines/deployment.hpp"
#include "ropelens/model/text.hpp"
#include "ropelens/model/units.hpp"
#include "ropelens/rules/rule.hpp"

namespace ropelens::cli {

std::string rule_code(std::string_view name) {
  const Rule* rule = find_rule(name);
  if (rule == nullptr) throw std::logic_error("no rule named " + std::string(name));
  return std::string(rule->meta.code);
}

void add_format_option(CLI::App& cmd, std::string& format, std::vector<std::string> choices) {
  std::string help = "output format: " + fmt::format("{}", fmt::join(choices, ", "));
  cmd.add_option("--format", format, help)->check(one_of(format_choices(std::move(choices))));
}

void add_set_option(CLI::App& cmd, std::vector<std::string>& edits) {
  cmd.add_option("--set", edits,
                 "POINTER=JSON: edit the config before analysis (repeatable), e.g. "
                 "--set '/rope_scaling={\"rope_type\":\"yarn\",\"factor\":4}'")
      ->take_all()
      ->allow_extra_args(false);
}

CLI::Option* add_engine_option(CLI::App& cmd, std::string& engine, const std::string& help) {
  return cmd.add_option("--engine", engine, help)->check(one_of(engine_choice_list()));
}

void add_engine_option(CLI::App& cmd, std::string& engine) {
  add_engine_option(cmd, engine,
                    fmt::format("show what an inference engine runs: {}, or all side by side", engine_names()));
}

void add_stack_option(CLI::App& cmd, std::vector<std::string>& stack) {
  add_list_option(cmd, "--stack", stack,
                  fmt::format("ENGINE[@VERSION]: the engines you serve with ({}), VERSION a release (vllm@0.8.5, "
                              "llama.cpp@b5000) or a key ropelens rules lists; engine rules, views, fit and snippets "
                              "cover only these",
                              engine_names()));
}

void add_tp_option(CLI::App& cmd, int& tp) {
  cmd.add_option("--tp", tp,
                 "N: GPUs the model is split over (tensor parallelism, default 1); --memory is one GPU's, and each "
                 "engine splits weights and KV heads as it shards them")
      ->check(CLI::Range(1, 1024));
}

Deployment deployment_option(const std::vector<std::string>& values, const ProjectSettings& settings) {
  const Deployment deployment = resolve_stack_option(values, settings);
  for (const std::string& note : deployment.notes) print_warning(note);
  return deployment;
}

void add_revision_option(CLI::App& cmd, std::optional<std::string>& revision) {
  cmd.add_option("--revision", revision, "the branch, tag or commit of a Hugging Face id (default main)");
}

void add_kv_dtype_option(CLI::App& cmd, std::string& dtype) {
  cmd.add_option("--kv-dtype", dtype,
                 "KV-cache dtype for the memory figures: bf16, f16, f32, fp8, q8_0 or q4_0 (default: the config's "
                 "torch_dtype, else bf16)")
      ->check(one_of(kv_dtype_choices()));
}

CLI::Validator tokens_validator(std::int64_t min) {
  return CLI::Validator(
      [min](std::string& text) {
        try {
          text = std::to_string(parse_token_count(text, min));
          return std::string();
        } catch (const std::invalid_argument& e) {
          return std::string(e.what());
        }
      },
      "TOKENS");
}

constexpr unsigned kMostJobs = 1024;

void add_jobs_option(CLI::App& cmd, unsigned& jobs) {
  cmd.add_option("-j,--jobs", jobs,
                 "read and check files on N threads (default: the cores this process may use, as nproc counts "
                 "them, or fewer under a container's CPU quota)")
      ->type_name("N")
      ->check(CLI::Validator(
          [](std::string& text) {
            unsigned value = 0;
            const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
            if (error == std::errc() && end == text.data() + text.size() && value >= 1 && value <= kMostJobs)
              return std::string();
            return fmt::format("'{}' is not a number of threads: expected a whole number from 1 to {}", text,
                               kMostJobs);
          },
          ""));
}

CLI::Option* add_list_option(CLI::App& cmd, const std::string& name, std::vector<std::string>& values,
                             const std::string& help) {
  return cmd.add_option(name, values, help + " (comma-separated, repeatable)")
      ->delimiter(',')
      ->take_all()
      ->allow_extra_args(false);
}

CLI::Option* add_trained_length_option(CLI::App& cmd, std::optional<std::int64_t>& trained_length) {
  return add_tokens_option(cmd, "--trained-length", trained_length,
                           "the length the weights were trained at, L_P (default: the config's keys, bounded by a "
                           "known base model; over \"trained_length\" in .ropelens.json)",
                           1);
}

void add_training_options(CLI::App& cmd, std::optional<std::int64_t>& trained_length,
                          std::optional<std::int64_t>& extended_length) {
  add_trained_length_option(cmd, trained_length);
  add_tokens_option(cmd, "--extended-length", extended_length, "override the extension length L_E (0: none)", 0);
}

void add_rule_options(CLI::App& cmd, RuleOptions& options) {
  add_tokens_option(cmd, "--target", options.target,
                    "target context length in tokens (default: each model's declared length)", 1);
  add_training_options(cmd, options.trained_length, options.extended_length);
  cmd.add_option("--fail-on", options.fail_on, "lowest severity that fails the run (default warning)")
      ->check(one_of(severity_choices()));
  add_list_option(cmd, "--select", options.select,
                  "only these codes, names or prefixes (e.g. CTX, ROPE1, unseen-angles; ALL: every rule; default: the "
                  "default set)");
  add_list_option(cmd, "--extend-select", options.extend_select,
                  fmt::format("also run these codes, names or prefixes (e.g. {}) on top of the selection",
                              rule_code("low-coverage-pairs")));
  add_list_option(cmd, "--ignore", options.ignore, "skip these codes, names or prefixes");
  add_list_option(cmd, "--severity", options.severity, "CODE=error|warning|info: override a rule's severity");
  cmd.add_option("--exclude", options.exclude,
                 "GLOB: also leave out matching files and folders when searching directories (repeatable)")
      ->take_all()
      ->allow_extra_args(false);
  cmd.add_option("--memory", options.memory,
                 fmt::format("SIZE (e.g. 80GiB): {} checks that weights plus the KV cache at the target fit in it",
                             rule_code("memory-over-budget")));
  add_tp_option(cmd, options.tp);
  add_kv_dtype_option(cmd, options.kv_dtype);
  add_stack_option(cmd, options.stack);
}

void add_check_request_options(CLI::App& cmd, CheckRequest& request) {
  add_rule_options(cmd, request.rules);
  cmd.add_flag("--force-exclude", request.force_exclude,
               "treat files named on the command line as a directory scan would: leave out excluded paths and "
               "skip config.json files that are not model configs (for pre-commit, which names every changed file)");
  cmd.add_option("--baseline", request.baseline,
                 "FILE: leave out the findings recorded in FILE (by --write-baseline) and report the rest; entries "
                 "that match nothing any more are reported as fixed");
  add_engine_option(cmd, request.engine);
  add_revision_option(cmd, request.revision);
  add_jobs_option(cmd, request.jobs);
  cmd.add_option("--source", request.source,
                 "CONFIG: the config.json (path or Hugging Face id) the GGUF files were converted from; their "
                 "RoPE keys are checked against what convert_hf_to_gguf.py writes for it (default: a config.json "
                 "beside the GGUF file)");
  cmd.add_option("--serve", request.serve,
                 "COMMAND: check a launch line (vllm serve …, python -m vllm.entrypoints.openai.api_server …, "
                 "python -m sglang.launch_server …, llama-server …, llama-cli …; - reads it from stdin): its model "
                 "as that engine version runs it, at the length it serves (repeatable)")
      ->allow_extra_args(false);
  cmd.add_option("--model", request.model,
                 "PATH|ID: the model the launch lines run (--serve, launch files), instead of the one they name");
  add_set_option(cmd, request.edits);
}

ResolvedRuleOptions resolve_check_command(const CheckRequest& request, const ProjectSettings& settings) {
  ResolvedRuleOptions resolved = resolve_check_request(request, settings);
  for (const std::string& note : resolved.check.deployment.notes) print_warning(note);
  return resolved;
}

ResolvedRuleOptions resolve_check_options(const RuleOptions& options) {
  ResolvedRuleOptions resolved =
      resolve_rule_options(options, load_project_settings(std::filesystem::current_path().string()));
  for (const std::string& note : resolved.check.deployment.notes) print_warning(note);
  return resolved;
}

int exit_code_for(bool unreadable, FindingCounts findings, Severity fail_on, bool exit_zero) {
  if (unreadable) return kExitError;
  if (exit_zero) return kExitClean;
  const bool failing = findings.errors > 0 || (fail_on <= Severity::warning && findings.warnings > 0) ||
                       (fail_on == Severity::info && findings.infos > 0);
  return failing ? kExitFindings : kExitClean;
}

}  // namespace ropelens::cli
