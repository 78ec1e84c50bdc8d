// `ropelens report`: checks the files as `check` does (the same settings file, rule options and counts) and
// writes one self-contained HTML page.
#include <filesystem>
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "commands.hpp"
#include "exit_codes.hpp"
#include "options.hpp"
#include "output.hpp"
#include "ropelens/check/report_data.hpp"
#include "ropelens/render/render.hpp"

namespace ropelens::cli {
namespace {

constexpr const char* kDefaultReportPath = "ropelens-report.html";

struct ReportCommandOptions {
  std::vector<std::string> paths;
  RuleOptions rules;
  bool exit_zero = false;
  std::string engine = "all";
  std::vector<std::string> edits;
  std::optional<std::string> revision;
  OutputOptions output;
};

void run_report(const ReportCommandOptions& options, Outcome& outcome) {
  ResolvedRuleOptions resolved = resolve_check_options(options.rules);
  CheckOptions& check = resolved.check;
  check.edits = parse_edits(options.edits);
  check.revision = options.revision;
  check.deployment = with_engine_option(std::move(check.deployment), options.engine);
  check.engines = check.deployment.viewed(options.engine);
  const ReportDocument document = build_report(options.paths, check);
  for (const auto& model : document.models)
    if (model->check.error) print_error(*model->check.error);

  const std::string path = options.output.path.empty() ? kDefaultReportPath : options.output.path;
  Output output(path);
  render_report_html(document, output.stream());
  output.close();
  if (!output.to_stdout() && !options.output.quiet) std::cout << std::filesystem::absolute(path).string() << "\n";
  const CheckCounts& counts = document.counts;
  outcome.exit_code = exit_code_for(counts.unreadable_files > 0, {counts.errors, counts.warnings, counts.infos},
                                    resolved.fail_on, options.exit_zero);
}

}  // namespace

void setup_report(CLI::App* cmd, Outcome& outcome) {
  auto options = std::make_shared<ReportCommandOptions>();
  cmd->add_option("PATH", options->paths, std::string(kPathHelp) + ", or directories (searched as check does)")
      ->required();
  add_rule_options(*cmd, options->rules);
  cmd->add_flag("--exit-zero", options->exit_zero, "exit 0 even when there are findings");
  add_engine_option(*cmd, options->engine);
  add_revision_option(*cmd, options->revision);
  add_set_option(*cmd, options->edits);
  cmd->add_option("-o,--output", options->output.path,
                  fmt::format("the HTML file to write (default {}; - for stdout)", kDefaultReportPath));
  add_quiet_option(*cmd, options->output, "do not print the path of the page written");
  cmd->callback([options, &outcome] { run_report(*options, outcome); });
}

}  // namespace ropelens::cli
