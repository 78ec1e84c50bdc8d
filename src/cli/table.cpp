#include <filesystem>
#include <algorithm>
#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "commands.hpp"
#include "exit_codes.hpp"
#include "options.hpp"
#include "ropelens/engines/deployment.hpp"
#include "output.hpp"
#include "ropelens/audit/audit.hpp"
#include "ropelens/engines/engine_report.hpp"
#include "ropelens/check/check.hpp"
#include "ropelens/check/model_log.hpp"
#include "ropelens/render/formats.hpp"
#include "ropelens/report/table_report.hpp"

namespace ropelens::cli {
namespace fs = std::filesystem;

namespace {

// A table of a model whose head_dim had to be made up would be a table of nothing: say what is missing instead.
std::optional<std::string> missing_for_pairs(const Model& model) {
  return audit_model(model, 1).pair_figures_missing();
}

// The formats of the table and of the engine views (--engine), each once.
std::vector<std::string> table_format_names() {
  std::vector<std::string> names = format_names(table_formats());
  for (auto& name : format_names(engine_formats()))
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(std::move(name));
  return names;
}

}  // namespace

void setup_table(CLI::App* cmd, Outcome& outcome) {
  struct Options {
    std::string path;
    std::string format = "text";
    std::optional<std::int64_t> target;
    std::optional<std::int64_t> seq_len;
    std::optional<std::int64_t> trained_length;
    std::optional<std::int64_t> extended_length;
    std::string pairs;
    std::string engine;
    std::vector<std::string> stack;
    std::vector<std::string> edits;
    std::string kv_dtype;
    std::optional<std::string> revision;
    OutputOptions output;
  };
  auto options = std::make_shared<Options>();
  cmd->add_option("PATH", options->path, kPathHelp)->required();
  add_format_option(*cmd, options->format, table_format_names());
  add_tokens_option(*cmd, "--target", options->target, "audit every pair at a sequence of N tokens", 1);
  add_tokens_option(*cmd, "--seq-len", options->seq_len,
                    "evaluate length-dependent methods (dynamic, longrope) at N tokens", 1);
  add_training_options(*cmd, options->trained_length, options->extended_length);
  cmd->add_option("--pairs", options->pairs, "rows to print: 0,16,32 or 29-34");
  add_engine_option(*cmd, options->engine);
  add_stack_option(*cmd, options->stack);
  add_kv_dtype_option(*cmd, options->kv_dtype);
  add_revision_option(*cmd, options->revision);
  add_set_option(*cmd, options->edits);
  add_output_option(*cmd, options->output);
  add_color_option(*cmd, options->output);
  add_wide_option(*cmd, options->output);
  cmd->callback([options, &outcome] {
    if (!options->engine.empty()) find_format(engine_formats(), options->format, "table --engine");
    LoadedModel loaded = load_model(options->path, parse_edits(options->edits), options->revision);
    attach_conversion_source(loaded, std::nullopt);
    log_loaded_model(loaded);
    if (auto missing = missing_for_pairs(loaded.model)) {
      print_error(fmt::format("{}: no RoPE table: {}", options->path, *missing));
      outcome.exit_code = kExitError;
      return;
    }
    Output output(options->output.path);
    std::ostream& out = output.stream();
    if (!options->engine.empty()) {
      auto target = resolve_target(options->target, loaded.model);
      const Deployment deployment = with_engine_option(
          deployment_option(options->stack, load_project_settings(fs::current_path().string())), options->engine);
      auto report = select_engine_report(deployment_views(loaded.model, deployment, target),
                                         deployment.viewed(options->engine), target);
      find_format(engine_formats(), options->format, "table --engine")(loaded.model, report, out,
                                                                       text_options(options->output, output));
      output.close();
      outcome.exit_code = 0;
      return;
    }
    TableRequest request;
    request.target_tokens = options->target;
    request.seq_len = options->seq_len;
    TrainingOverrides training;
    training.trained_length = options->trained_length;
    training.extended_length = options->extended_length;
    request.training = {
        loaded.as_trained ? &*loaded.as_trained : nullptr,
        training_evidence(loaded, training, load_project_settings(fs::current_path().string()).trained_lengths)};
    if (!options->pairs.empty()) request.pairs = parse_pair_list(options->pairs);
    request.kv_dtype = parse_kv_dtype_option(options->kv_dtype, "--kv-dtype");
    TableReport report = build_table_report(loaded.model, request);
    find_format(table_formats(), options->format, "table")(report, out, text_options(options->output, output));
    output.close();
    outcome.exit_code = 0;
  });
}

}  // namespace ropelens::cli
