#include <iostream>
#include <memory>

#include "commands.hpp"
#include "options.hpp"
#include "output.hpp"
#include "ropelens/render/formats.hpp"

namespace ropelens::cli {

void setup_rules(CLI::App* cmd, Outcome& outcome) {
  auto format = std::make_shared<std::string>("text");
  auto output_options = std::make_shared<OutputOptions>();
  add_format_option(*cmd, *format, format_names(rules_formats()));
  add_output_option(*cmd, *output_options);
  cmd->callback([format, output_options, &outcome] {
    Output output(output_options->path);
    TextOptions text = text_options(*output_options, output);
    text.width = help_width();  // 80 columns piped or in a file, as help
    find_format(rules_formats(), *format, "rules")(output.stream(), text);
    output.close();
    outcome.exit_code = 0;
  });
}

}  // namespace ropelens::cli
