// `ropelens diff OLD NEW` and `ropelens diff --git REV[..REV2] [PATH...]`.
#include <filesystem>
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "commands.hpp"
#include "options.hpp"
#include "output.hpp"
#include "ropelens/diff/diff.hpp"
#include "ropelens/check/project_settings.hpp"
#include "ropelens/render/formats.hpp"

namespace ropelens::cli {
namespace {

struct DiffCommandOptions {
  std::vector<std::string> paths;
  std::string git;
  std::string format = "text";
  RuleOptions rules;
  bool exit_zero = false;
  OutputOptions output;
};

// "REV" or "REV1..REV2".
GitDiffRequest git_request(const std::string& range, const std::vector<std::string>& paths) {
  GitDiffRequest request;
  request.paths = paths;
  if (range.find("...") != std::string::npos)
    throw std::invalid_argument(
        fmt::format("--git '{}': give REV or REV1..REV2; to compare with a merge base, pass it "
                    "(--git \"$(git merge-base origin/main HEAD)\")",
                    range));
  const auto dots = range.find("..");
  if (dots == std::string::npos) {
    request.old_revision = range;
  } else {
    request.old_revision = range.substr(0, dots);
    request.new_revision = range.substr(dots + 2);
    if (request.old_revision.empty() || request.new_revision->empty())
      throw std::invalid_argument(fmt::format("--git '{}': expected REV1..REV2 with both revisions", range));
  }
  return request;
}

void run_diff(const DiffCommandOptions& options, Outcome& outcome) {
  const ResolvedRuleOptions resolved = resolve_check_options(options.rules);
  DiffReport report;
  if (!options.git.empty()) {
    report = diff_git(git_request(options.git, options.paths), resolved.check);
  } else {
    if (options.paths.size() != 2)
      throw std::invalid_argument(fmt::format("diff takes two paths (OLD NEW), or --git REV [PATH...]; got {} path{}",
                                              options.paths.size(), options.paths.size() == 1 ? "" : "s"));
    report = diff_files(options.paths[0], options.paths[1], resolved.check);
  }
  if (!options.output.quiet) {
    Output output(options.output.path);
    find_format(diff_formats(), options.format, "diff")(report, output.stream(), text_options(options.output, output));
    output.close();
  }
  for (const auto& model : report.models)
    if (model.error) print_error(*model.error);
  const DiffCounts& c = report.counts;
  outcome.exit_code = exit_code_for(c.unreadable > 0, {c.introduced_errors, c.introduced_warnings, c.introduced_infos},
                                    resolved.fail_on, options.exit_zero);
}

}  // namespace

void setup_diff(CLI::App* cmd, Outcome& outcome) {
  auto options = std::make_shared<DiffCommandOptions>();
  cmd->add_option("PATH", options->paths,
                  "OLD NEW (config.json files, model folders or GGUF files); with --git, the paths to compare "
                  "(default: the working directory)");
  cmd->add_option("--git", options->git,
                  "REV or REV1..REV2: compare every changed config.json and GGUF file between REV and the working tree "
                  "(or REV2), reading old contents from git");
  add_format_option(*cmd, options->format, format_names(diff_formats()));
  add_rule_options(*cmd, options->rules);
  cmd->add_flag("--exit-zero", options->exit_zero, "exit 0 even when the change introduces findings");
  add_output_option(*cmd, options->output);
  add_quiet_option(*cmd, options->output, "print nothing: answer by the exit code alone");
  cmd->callback([options, &outcome] { run_diff(*options, outcome); });
}

}  // namespace ropelens::cli
