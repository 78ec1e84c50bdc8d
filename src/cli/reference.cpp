#include "reference.hpp"

namespace ropelens::cli {
namespace {

// CLI11 writes an IsMember check into the type name as ":{a,b,c}".
std::vector<std::string> choices_in(const std::string& type_name) {
  const auto open = type_name.find(":{");
  const auto close = type_name.find('}', open);
  if (open == std::string::npos || close == std::string::npos) return {};
  std::vector<std::string> choices;
  std::string list = type_name.substr(open + 2, close - open - 2);
  for (std::size_t start = 0; start <= list.size();) {
    const auto comma = std::min(list.find(',', start), list.size());
    choices.push_back(list.substr(start, comma - start));
    start = comma + 1;
  }
  return choices;
}

OptionReference describe_option(const CLI::Option& option) {
  OptionReference out;
  for (const auto& name : option.get_snames()) out.names.push_back("-" + name);
  for (const auto& name : option.get_lnames()) out.names.push_back("--" + name);
  if (option.get_positional() && out.names.empty()) out.positional = option.get_name(true);
  const bool takes_value = option.get_expected_max() > 0;  // a flag's type size is 1 in CLI11 2.1, its count 0
  if (takes_value) {
    const std::string type_name = option.get_type_name();
    out.value_name = type_name.substr(0, type_name.find(':'));
    out.choices = choices_in(type_name);
  }
  out.help = option.get_description();
  out.required = option.get_required();
  out.repeatable = option.get_expected_max() > 1 || option.get_multi_option_policy() == CLI::MultiOptionPolicy::TakeAll;
  return out;
}

std::vector<OptionReference> describe_options(const CLI::App& app) {
  std::vector<OptionReference> named;
  std::vector<OptionReference> positional;
  for (const CLI::Option* option : app.get_options()) {
    if (option->get_group().empty()) continue;  // hidden
    OptionReference described = describe_option(*option);
    (described.names.empty() ? positional : named).push_back(std::move(described));
  }
  named.insert(named.end(), positional.begin(), positional.end());
  return named;
}

}  // namespace

CliReference describe_cli(const CLI::App& app) {
  CliReference cli{app.get_name(), app.get_description(), describe_options(app), {}};
  std::vector<std::string> names;
  for (const CLI::App* command : app.get_subcommands([](const CLI::App*) { return true; })) {
    cli.commands.push_back({command->get_name(), command->get_description(), describe_options(*command)});
    names.push_back(command->get_name());
  }
  for (auto& command : cli.commands)  // `help COMMAND` takes a command's name
    for (auto& option : command.options)
      if (option.positional == "COMMAND") option.choices = names;
  return cli;
}

}  // namespace ropelens::cli
