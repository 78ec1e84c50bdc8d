#include <iostream>
#include <memory>

#include "commands.hpp"
#include "options.hpp"
#include "output.hpp"
#include "ropelens/render/render.hpp"

namespace ropelens::cli {

void setup_rules(CLI::App* cmd, Outcome& outcome) {
  auto format = std::make_shared<std::string>("text");
  auto output_options = std::make_shared<OutputOptions>();
  add_format_option(*cmd, *format, {"text", "json", "markdown"});
  add_output_option(*cmd, *output_options);
  cmd->callback([format, output_options, &outcome] {
    Output output(output_options->path);
    if (*format == "json") render_rules_json(output.stream());
    else if (*format == "markdown") render_rules_markdown(output.stream());
    else render_rules_text(output.stream());
    output.close();
    outcome.exit_code = 0;
  });
}

}  // namespace ropelens::cli
