#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "commands.hpp"
#include "options.hpp"
#include "output.hpp"
#include "exit_codes.hpp"
#include "ropelens/documents/documents.hpp"
#include "ropelens/render/formats.hpp"

namespace ropelens::cli {

void setup_suggest(CLI::App* cmd, Outcome& outcome) {
  struct Options {
    std::string path;
    std::int64_t target = 0;
    std::optional<std::int64_t> original;
    std::string engine = "all";
    std::vector<std::string> stack;
    std::string format = "text";
    OutputOptions output;
    std::optional<std::string> revision;
  };
  auto options = std::make_shared<Options>();
  cmd->add_option(
         "PATH", options->path,
         std::string(kPathHelp) + "; a GGUF file or ollama:NAME gets llama.cpp flags, verified on its metadata")
      ->required();
  add_tokens_option(*cmd, "--target", options->target, "the context length to reach, in tokens", 2)->required();
  add_trained_length_option(*cmd, options->original)
      ->excludes(add_tokens_option(*cmd, "--original", options->original, "the same as --trained-length", 2));
  add_engine_option(*cmd, options->engine, fmt::format("snippets for: {} or all", engine_names()));
  add_stack_option(*cmd, options->stack);
  add_format_option(*cmd, options->format, format_names(suggest_formats()));
  add_output_option(*cmd, options->output);
  add_revision_option(*cmd, options->revision);
  cmd->callback([options, &outcome] {
    SuggestRequest request;
    request.revision = options->revision;
    request.target_tokens = options->target;
    const ProjectSettings settings = load_project_settings(".");
    request.original_tokens = options->original;
    apply_trained_length_rules(request, settings.trained_lengths, shown_path(options->path));
    request.deployment = with_engine_option(deployment_option(options->stack, settings), options->engine);
    request.engines = request.deployment.served(options->engine);
    const SuggestReport report = suggest_changes(options->path, request);
    Output output(options->output.path);
    write_suggest_document(report, options->format, output.stream(), text_options(options->output, output));
    output.close();
    outcome.exit_code = kExitClean;
  });
}

}  // namespace ropelens::cli
