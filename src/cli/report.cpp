// `ropelens report`: checks the files like `check` and writes one self-contained HTML page.
#include <filesystem>
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "commands.hpp"
#include "exit_codes.hpp"
#include "options.hpp"
#include "output.hpp"
#include "ropelens/render/render.hpp"
#include "ropelens/check/report_data.hpp"

namespace ropelens::cli {
namespace {

constexpr const char* kDefaultReportPath = "ropelens-report.html";

struct ReportCommandOptions {
  std::vector<std::string> paths;
  std::optional<std::int64_t> target;
  std::optional<std::int64_t> trained_length;
  std::optional<std::int64_t> extended_length;
  std::string engine = "all";
  std::vector<std::string> edits;
  std::string memory;
  std::string kv_dtype;
  OutputOptions output;
};

void run_report(const ReportCommandOptions& options, Outcome& outcome) {
  CheckOptions check;
  check.selection.select = {
      "ALL"};  // the page is a full reading of the model: facts included, not just the default set
  check.target_tokens = options.target;
  check.training = {options.trained_length, options.extended_length};
  check.edits = parse_edits(options.edits);
  check.engines = parse_engine_selection(options.engine);
  if (!options.memory.empty()) check.memory_budget = parse_memory_option(options.memory);
  check.kv_dtype = parse_kv_dtype_option(options.kv_dtype);
  const ReportDocument document = build_report(options.paths, check);
  for (const auto& model : document.models)
    if (model->check.error) print_error(*model->check.error);

  const std::string path = options.output.path.empty() ? kDefaultReportPath : options.output.path;
  Output output(path);
  render_report_html(document, output.stream());
  output.close();
  if (!output.to_stdout() && !options.output.quiet) std::cout << std::filesystem::absolute(path).string() << "\n";
  outcome.exit_code = document.counts.unreadable_files > 0 ? kExitError : kExitClean;
}

}  // namespace

void setup_report(CLI::App* cmd, Outcome& outcome) {
  auto options = std::make_shared<ReportCommandOptions>();
  cmd->add_option("PATH", options->paths, "files (config.json or .gguf), model folders, directories, or -")->required();
  add_tokens_option(*cmd, "--target", options->target,
                    "target context length in tokens (default: each model's declared length)", 1);
  add_tokens_option(*cmd, "--trained-length", options->trained_length, "override the pretraining length L_P", 1);
  add_tokens_option(*cmd, "--extended-length", options->extended_length, "override the extension length L_E (0: none)",
                    0);
  add_engine_option(*cmd, options->engine);
  add_set_option(*cmd, options->edits);
  cmd->add_option("--memory", options->memory,
                  "SIZE (e.g. 80GiB): add what fit finds (the longest context whose weights and KV cache fit, per "
                  "engine) and check the budget at the target");
  add_kv_dtype_option(*cmd, options->kv_dtype);
  cmd->add_option("-o,--output", options->output.path,
                  fmt::format("the HTML file to write (default {}; - for stdout)", kDefaultReportPath));
  add_quiet_option(*cmd, options->output, "do not print the path of the page written");
  cmd->callback([options, &outcome] { run_report(*options, outcome); });
}

}  // namespace ropelens::cli
