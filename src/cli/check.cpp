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
  CheckRequest request;
  std::string format = "text";
  bool exit_zero = false;
  std::string write_baseline;
  OutputOptions output;
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
  if (!options.request.baseline.empty() && !options.write_baseline.empty())
    throw std::invalid_argument(
        "--baseline and --write-baseline: give one (write a new baseline, or check against one)");
  if (options.paths.empty() && options.request.serve.empty())
    throw std::invalid_argument("check: give a PATH or --serve 'COMMAND' (see ropelens check --help)");
  ResolvedRuleOptions resolved =
      resolve_check_command(options.request, load_project_settings(std::filesystem::current_path().string()));
  CheckOptions& check = resolved.check;
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
  add_check_request_options(*cmd, options->request);
  cmd->add_flag("--exit-zero", options->exit_zero, "exit 0 even when there are findings");
  cmd->add_option("--write-baseline", options->write_baseline,
                  "FILE: record today's findings in FILE (exit 0 unless a file cannot be read)");
  add_output_option(*cmd, options->output);
  add_color_option(*cmd, options->output);
  add_quiet_option(*cmd, options->output, "text: print only the findings and the summary (no audit or engine tables)");
  cmd->callback([options, &outcome] { run_check(*options, outcome); });
}

}  // namespace ropelens::cli
