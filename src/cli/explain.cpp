#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "commands.hpp"
#include "options.hpp"
#include "output.hpp"
#include "exit_codes.hpp"
#include "ropelens/model/text.hpp"
#include "ropelens/rules/rule.hpp"
#include "ropelens/render/formats.hpp"

namespace ropelens::cli {
namespace {

std::vector<std::string> rule_codes_and_names() {
  std::vector<std::string> known;
  for (const Rule* rule : rule_registry()) {
    known.emplace_back(rule->meta.code);
    known.emplace_back(rule->meta.name);
  }
  return known;
}

}  // namespace

void setup_explain(CLI::App* cmd, Outcome& outcome) {
  struct Options {
    std::string code;
    std::string format = "text";
    OutputOptions output;
  };
  auto options = std::make_shared<Options>();
  cmd->add_option("CODE", options->code,
                  fmt::format("a rule code or name, e.g. {} or unseen-angles", rule_code("unseen-angles")))
      ->required();
  add_format_option(*cmd, options->format, format_names(explain_formats()));
  add_output_option(*cmd, options->output);
  cmd->callback([options, &outcome] {
    const Rule* rule = find_rule(options->code);
    if (rule == nullptr) {
      print_error(fmt::format("no rule '{}'{}; `ropelens rules` lists them", options->code,
                              did_you_mean(options->code, rule_codes_and_names())));
      outcome.exit_code = kExitError;
      return;
    }
    Output output(options->output.path);
    find_format(explain_formats(), options->format, "explain")(*rule, output.stream());
    output.close();
    outcome.exit_code = 0;
  });
}

}  // namespace ropelens::cli
