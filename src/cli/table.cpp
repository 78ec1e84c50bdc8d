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
#include "ropelens/check/check.hpp"
#include "ropelens/check/model_log.hpp"
#include "ropelens/documents/documents.hpp"
#include "ropelens/render/formats.hpp"

namespace ropelens::cli {
namespace fs = std::filesystem;

namespace {

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
    TableOptions table;
    table.request.target_tokens = options->target;
    table.request.seq_len = options->seq_len;
    if (!options->pairs.empty()) table.request.pairs = parse_pair_list(options->pairs);
    table.request.kv_dtype = parse_kv_dtype_option(options->kv_dtype, "--kv-dtype");
    table.training.trained_length = options->trained_length;
    table.training.extended_length = options->extended_length;
    const ProjectSettings settings = load_project_settings(fs::current_path().string());
    table.trained_lengths = settings.trained_lengths;
    if (!options->engine.empty()) {
      table.deployment = with_engine_option(deployment_option(options->stack, settings), options->engine);
      table.engines = table.deployment.viewed(options->engine);
    }
    Output output(options->output.path);
    write_table_document(loaded, table, options->format, output.stream(), text_options(options->output, output));
    output.close();
    outcome.exit_code = 0;
  });
}

}  // namespace ropelens::cli
