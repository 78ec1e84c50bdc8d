#include <iostream>
#include <memory>

#include "commands.hpp"
#include "options.hpp"
#include "ropelens/render.hpp"

namespace ropelens::cli {

void setup_rules(CLI::App* cmd, Outcome& outcome) {
  auto format = std::make_shared<std::string>("text");
  add_format_option(*cmd, *format, {"text", "json", "markdown"});
  cmd->callback([format, &outcome] {
    if (*format == "json") render_rules_json(std::cout);
    else if (*format == "markdown") render_rules_markdown(std::cout);
    else render_rules_text(std::cout);
    outcome.exit_code = 0;
  });
}

}  // namespace ropelens::cli
