#include <iostream>
#include <memory>

#include "commands.hpp"
#include "options.hpp"
#include "output.hpp"
#include "ropelens/check/model_log.hpp"
#include "ropelens/documents/documents.hpp"
#include "ropelens/load/model_loader.hpp"
#include "ropelens/render/formats.hpp"

namespace ropelens::cli {

void setup_inspect(CLI::App* cmd, Outcome& outcome) {
  struct Options {
    std::string path;
    std::string format = "text";
    std::vector<std::string> edits;
    OutputOptions output;
    std::optional<std::int64_t> target;
    std::string kv_dtype;
    std::optional<std::string> revision;
  };
  auto options = std::make_shared<Options>();
  cmd->add_option("PATH", options->path, kPathHelp)->required();
  add_format_option(*cmd, options->format, format_names(inspect_formats()));
  add_tokens_option(*cmd, "--target", options->target, "also report the KV cache a sequence of N tokens needs");
  add_kv_dtype_option(*cmd, options->kv_dtype);
  add_revision_option(*cmd, options->revision);
  add_set_option(*cmd, options->edits);
  add_output_option(*cmd, options->output);
  cmd->callback([options, &outcome] {
    LoadedModel loaded = load_model(options->path, parse_edits(options->edits), options->revision);
    log_loaded_model(loaded);
    Output output(options->output.path);
    write_inspect_document(loaded, {options->target, parse_kv_dtype_option(options->kv_dtype, "--kv-dtype")},
                           options->format, output.stream(), text_options(options->output, output));
    output.close();
    outcome.exit_code = 0;
  });
}

}  // namespace ropelens::cli
