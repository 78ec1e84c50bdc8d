#include <iostream>
#include <memory>

#include "commands.hpp"
#include "options.hpp"
#include "ropelens/check.hpp"
#include "ropelens/model_loader.hpp"
#include "ropelens/model_log.hpp"
#include "ropelens/render.hpp"

namespace ropelens::cli {

void setup_inspect(CLI::App* cmd, Outcome& outcome) {
  struct Options {
    std::string path;
    std::string format = "text";
    std::vector<std::string> edits;
  };
  auto options = std::make_shared<Options>();
  cmd->add_option("PATH", options->path, "config.json, a model folder, a .gguf file, or - for stdin")->required();
  add_format_option(*cmd, options->format, {"text", "json"});
  add_set_option(*cmd, options->edits);
  cmd->callback([options, &outcome] {
    LoadedModel loaded = load_model(options->path, parse_edits(options->edits));
    log_loaded_model(loaded);
    SchemeReport schemes = build_scheme_report(loaded.model, std::nullopt);
    const std::vector<Diagnostic> problems = config_findings(loaded);
    if (options->format == "json") render_inspect_json(loaded.model, schemes, problems, std::cout);
    else render_inspect_text(loaded.model, schemes, problems, std::cout);
    outcome.exit_code = 0;
  });
}

}  // namespace ropelens::cli
