#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "commands.hpp"
#include "exit_codes.hpp"
#include "options.hpp"
#include "output.hpp"
#include "ropelens/check/baseline.hpp"
#include "ropelens/check/check.hpp"
#include "ropelens/check/project_settings.hpp"
#include "ropelens/documents/documents.hpp"
#include "ropelens/render/formats.hpp"

namespace ropelens::cli {
namespace {

struct CheckCommandOptions {
  std::vector<std::string> paths;
  std::string format = "text";
  RuleOptions rules;
  bool exit_zero = false;
  bool force_exclude = false;
  std::string baseline;
  std::string write_baseline;
  std::vector<std::string> edits;
  std::string engine;
  OutputOptions output;
  std::optional<std::string> revision;
  unsigned jobs = 0;  // 0: the cores available
  std::optional<std::string> source;
  std::vector<std::string> serve;
  std::optional<std::string> model;
};

void write_text_file(const std::string& path, const std::string& text) {
  std::error_code ignored;  // a folder that cannot be made shows as the write failing below
  if (auto folder = std::filesystem::path(path).parent_path(); !folder.empty())
    std::filesystem::create_directories(folder, ignored);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) throw InputError(path, "cannot write the baseline file");
}

void run_check(const CheckCommandOptions& options, Outcome& outcome) {
  if (!options.baseline.empty() && !options.write_baseline.empty())
    throw std::invalid_argument(
        "--baseline and --write-baseline: give one (write a new baseline, or check against one)");
  ResolvedRuleOptions resolved = resolve_check_options(options.rules);
  CheckOptions& check = resolved.check;
  check.edits = parse_edits(options.edits);
  check.revision = options.revision;
  check.source = options.source;
  check.force_exclude = options.force_exclude;
  check.jobs = options.jobs;
  if (options.paths.empty() && options.serve.empty())
    throw std::invalid_argument("check: give a PATH or --serve 'COMMAND' (see ropelens check --help)");
  for (const std::string& command : options.serve)
    check.serve_commands.push_back(command == "-" ? read_stdin().text : command);
  check.launch_model = options.model;
  if (!options.engine.empty()) check.engines = check.deployment.viewed(options.engine);
  if (!options.baseline.empty()) check.baseline = std::make_shared<const Baseline>(Baseline::read(options.baseline));
  check.keep_findings = !options.write_baseline.empty();

  std::vector<BaselineEntry> recorded;
  std::vector<EarlierVersion> trained;
  Output output(options.output.path);
  const CheckCounts counts = write_check_document(options.paths, check, options.format, output.stream(),
                                                  text_options(options.output, output), [&](const RenderedFile& file) {
                                                    if (file.error) print_error(*file.error);
                                                    for (const auto& finding : file.findings)
                                                      recorded.push_back(baseline_entry(file.path, finding));
                                                    if (file.trained) trained.push_back(*file.trained);
                                                  });
  output.close();
  for (const auto& note : counts.scan_notes) print_warning(note);
  if (!options.write_baseline.empty()) {
    write_text_file(options.write_baseline,
                    baseline_document(options.write_baseline, std::move(recorded), std::move(trained)));
    outcome.exit_code = counts.unreadable_files > 0 ? kExitError : kExitClean;
    return;
  }
  outcome.exit_code = exit_code_for(counts.unreadable_files > 0, {counts.errors, counts.warnings, counts.infos},
                                    resolved.fail_on, options.exit_zero);
}

}  // namespace

void setup_check(CLI::App* cmd, Outcome& outcome) {
  auto options = std::make_shared<CheckCommandOptions>();
  cmd->add_option("PATH", options->paths,
                  "files (config.json or .gguf), model folders, directories (searched for both), -, Hugging Face ids "
                  "(Org/Name[@REV]) in the local cache, ollama:NAME[:TAG], or launch files (*.sh scripts, Ollama "
                  "Modelfiles, Compose files and Kubernetes manifests: *.yaml, *.yml)");
  add_format_option(*cmd, options->format, format_names(check_formats()));
  add_rule_options(*cmd, options->rules);
  cmd->add_flag("--exit-zero", options->exit_zero, "exit 0 even when there are findings");
  cmd->add_flag("--force-exclude", options->force_exclude,
                "treat files named on the command line as a directory scan would: leave out excluded paths and "
                "skip config.json files that are not model configs (for pre-commit, which names every changed file)");
  cmd->add_option("--baseline", options->baseline,
                  "FILE: leave out the findings recorded in FILE (by --write-baseline) and report the rest; entries "
                  "that match nothing any more are reported as fixed");
  cmd->add_option("--write-baseline", options->write_baseline,
                  "FILE: record today's findings in FILE (exit 0 unless a file cannot be read)");
  add_engine_option(*cmd, options->engine);
  add_revision_option(*cmd, options->revision);
  add_jobs_option(*cmd, options->jobs);
  cmd->add_option("--source", options->source,
                  "CONFIG: the config.json (path or Hugging Face id) the GGUF files were converted from; their "
                  "RoPE keys are checked against what convert_hf_to_gguf.py writes for it (default: a config.json "
                  "beside the GGUF file)");
  cmd->add_option("--serve", options->serve,
                  "COMMAND: check a launch line (vllm serve …, python -m vllm.entrypoints.openai.api_server …, "
                  "python -m sglang.launch_server …, llama-server …, llama-cli …; - reads it from stdin): its model "
                  "as that engine version runs it, at the length it serves (repeatable)")
      ->allow_extra_args(false);
  cmd->add_option("--model", options->model,
                  "PATH|ID: the model the launch lines run (--serve, launch files), instead of the one they name");
  add_set_option(*cmd, options->edits);
  add_output_option(*cmd, options->output);
  add_color_option(*cmd, options->output);
  add_quiet_option(*cmd, options->output, "text: print only the findings and the summary (no audit or engine tables)");
  cmd->callback([options, &outcome] { run_check(*options, outcome); });
}

}  // namespace ropelens::cli
