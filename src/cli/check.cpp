#include <filesystem>
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "commands.hpp"
#include "options.hpp"
#include "ropelens/check.hpp"
#include "ropelens/project_settings.hpp"
#include "exit_codes.hpp"
#include "ropelens/render.hpp"

namespace ropelens::cli {
namespace {

struct Options {
  std::vector<std::string> paths;
  std::string format = "text";
  std::optional<std::int64_t> target;
  std::optional<std::int64_t> trained_length;
  std::optional<std::int64_t> extended_length;
  std::string fail_on;
  bool exit_zero = false;
  std::vector<std::string> select;
  std::vector<std::string> ignore;
  std::vector<std::string> severity;
  std::vector<std::string> edits;
  std::string engine;
};

// A typo in a selector would silently switch a rule off (or select nothing): it is a usage error instead.
const std::string& require_selector(const std::string& flag, const std::string& selector) {
  if (auto problem = selector_problem(selector); !problem.empty())
    throw std::invalid_argument(fmt::format("{}: {}", flag, problem));
  return selector;
}

std::map<std::string, Severity> parse_severity_overrides(const std::vector<std::string>& specs) {
  std::map<std::string, Severity> out;
  for (const auto& spec : specs) {
    auto equals = spec.find('=');
    auto level = equals == std::string::npos ? std::nullopt : parse_severity(spec.substr(equals + 1));
    if (!level)
      throw std::invalid_argument(fmt::format("--severity '{}': expected CODE=error|warning|info", spec));
    out[require_selector("--severity", spec.substr(0, equals))] = *level;
  }
  return out;
}

int exit_code_for(const CheckCounts& report, Severity fail_on, bool exit_zero) {
  if (report.unreadable_files > 0) return kExitError;
  if (exit_zero) return kExitClean;
  bool failing = report.errors > 0 || (fail_on <= Severity::warning && report.warnings > 0) ||
                 (fail_on == Severity::info && report.infos > 0);
  return failing ? kExitFindings : kExitClean;
}

void run_check(const Options& options, Outcome& outcome) {
  ProjectSettings settings = load_project_settings(std::filesystem::current_path().string());
  CheckOptions check;
  check.target_tokens = options.target ? options.target : settings.target_tokens;
  check.training = {options.trained_length, options.extended_length};
  check.selection = settings.selection;
  for (const auto& selector : options.select) require_selector("--select", selector);
  if (!options.select.empty()) check.selection.select = options.select;
  for (const auto& selector : options.ignore) check.selection.ignore.push_back(require_selector("--ignore", selector));
  for (const auto& [code, level] : parse_severity_overrides(options.severity)) check.selection.severity[code] = level;
  Severity fail_on = settings.fail_on.value_or(Severity::warning);
  if (!options.fail_on.empty()) fail_on = *parse_severity(options.fail_on);

  check.edits = parse_edits(options.edits);
  if (!options.engine.empty()) check.engines = parse_engine_selection(options.engine);
  auto renderer = make_check_renderer(options.format, std::cout);
  renderer->begin();
  const CheckRenderer& render_only = *renderer;
  CheckCounts counts = check_paths_streaming(
      options.paths, check, [&](const FileResult& file) { return render_only.render_file(file); },
      [&](RenderedFile&& file) {
        renderer->write_file(file.part);
        if (file.error) print_error(*file.error);
      });
  renderer->end(counts);
  outcome.exit_code = exit_code_for(counts, fail_on, options.exit_zero);
}

}  // namespace

void setup_check(CLI::App& app, Outcome& outcome) {
  auto options = std::make_shared<Options>();
  auto* cmd = app.add_subcommand("check", "Lint configs and audit them at a target length (exit 0 clean, 1 findings, "
                                          "2 errors)");
  cmd->add_option("PATH", options->paths, "files (config.json or .gguf), model folders, directories (searched for both), or -")
      ->required();
  add_format_option(*cmd, options->format, {"text", "json", "sarif", "github"});
  add_tokens_option(*cmd, "--target", options->target, "target context length in tokens (default: each model's declared length)", 1);
  add_tokens_option(*cmd, "--trained-length", options->trained_length, "override the pretraining length L_P", 1);
  add_tokens_option(*cmd, "--extended-length", options->extended_length, "override the extension length L_E (0: none)", 0);
  cmd->add_option("--fail-on", options->fail_on, "lowest severity that fails the run (default warning)")
      ->check(CLI::IsMember({"error", "warning", "info"}));
  cmd->add_flag("--exit-zero", options->exit_zero, "exit 0 even when there are findings");
  cmd->add_option("--select", options->select, "only these codes, names or prefixes (e.g. CTX, ROPE1, unseen-angles)")
      ->delimiter(',');
  cmd->add_option("--ignore", options->ignore, "skip these codes, names or prefixes")->delimiter(',');
  cmd->add_option("--severity", options->severity, "CODE=error|warning|info: override a rule's severity")
      ->delimiter(',');
  add_engine_option(*cmd, options->engine);
  add_set_option(*cmd, options->edits);
  cmd->callback([options, &outcome] { run_check(*options, outcome); });
}

}  // namespace ropelens::cli
