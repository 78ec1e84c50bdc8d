// Shell completion scripts for bash, zsh and fish. Global options are offered after the command too, since the
// parser accepts them there.
#include <algorithm>

#include <fmt/format.h>

#include "generate.hpp"

namespace ropelens::cli {
namespace {

std::string join(const std::vector<std::string>& words, std::string_view separator = " ") {
  return fmt::format("{}", fmt::join(words, separator));
}

std::vector<std::string> option_names(const std::vector<OptionReference>& options) {
  std::vector<std::string> names;
  for (const auto& option : options) names.insert(names.end(), option.names.begin(), option.names.end());
  return names;
}

// A positional argument named PATH (or FILE, DIR) completes file names.
bool takes_files(const std::vector<OptionReference>& options) {
  for (const auto& option : options)
    if (option.positional == "PATH" || option.positional == "FILE" || option.positional == "DIR") return true;
  return false;
}

// The options in `options` with no name in `others`.
std::vector<OptionReference> without(const std::vector<OptionReference>& options,
                                     const std::vector<OptionReference>& others) {
  const std::vector<std::string> taken = option_names(others);
  std::vector<OptionReference> kept;
  for (const auto& option : options) {
    const bool named_there = std::any_of(option.names.begin(), option.names.end(), [&](const std::string& name) {
      return std::find(taken.begin(), taken.end(), name) != taken.end();
    });
    if (!named_there) kept.push_back(option);
  }
  return kept;
}

// The values a positional argument takes, when it names them (`help COMMAND`).
std::vector<std::string> positional_choices(const std::vector<OptionReference>& options) {
  for (const auto& option : options)
    if (option.names.empty() && !option.choices.empty()) return option.choices;
  return {};
}

// A command's options, then the global options it does not shadow (the parser accepts them after the command).
std::vector<OptionReference> options_after(const CommandReference& command, const CliReference& cli) {
  std::vector<OptionReference> all = command.options;
  for (auto& option : without(cli.options, command.options)) all.push_back(std::move(option));
  return all;
}

// A command's options that no global option shares a name with.
std::vector<OptionReference> own_options(const CommandReference& command, const CliReference& cli) {
  return without(command.options, cli.options);
}

// bash: a `case $command:$prev` pattern for every option that takes a value: its choices, or nothing to offer.
void write_bash_values(std::string_view command, const std::vector<OptionReference>& options, std::ostream& out) {
  std::vector<std::string> free_values;
  for (const auto& option : options) {
    if (option.names.empty() || option.value_name.empty()) continue;
    std::vector<std::string> patterns;
    for (const auto& name : option.names) patterns.push_back(fmt::format("{}:{}", command, name));
    if (option.choices.empty()) free_values.insert(free_values.end(), patterns.begin(), patterns.end());
    else
      out << fmt::format("    {}) COMPREPLY=($(compgen -W \"{}\" -- \"$cur\")); return ;;\n", join(patterns, "|"),
                         join(option.choices));
  }
  if (!free_values.empty()) out << fmt::format("    {}) return ;;\n", join(free_values, "|"));
}

// zsh: one _arguments spec; descriptions escape the characters _arguments gives meaning to.
// Text inside a single-quoted _arguments spec: quotes closed and reopened, and the characters _arguments reads
// (brackets, colons, backslashes) escaped.
std::string zsh_quoted(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '\'') {
      out += "'\\''";
      continue;
    }
    if (c == '[' || c == ']' || c == ':' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

std::string zsh_spec(const OptionReference& option) {
  const std::string help = zsh_quoted(option.help);
  if (option.names.empty()) {
    const std::string action = takes_files({option})    ? "_files"
                               : option.choices.empty() ? " "
                                                        : "(" + join(option.choices) + ")";
    return fmt::format("'{}:{}:{}'", option.repeatable ? "*" : "", option.positional, action);
  }
  const std::string value = option.value_name.empty() ? ""
                            : option.choices.empty()  ? fmt::format(":{}: ", option.value_name)
                                                     : fmt::format(":{}:({})", option.value_name, join(option.choices));
  const std::string repeat = option.repeatable ? "*" : "";
  const std::string equals = option.value_name.empty() ? "" : "=";
  if (option.names.size() == 1) return fmt::format("'{}{}{}[{}]{}'", repeat, option.names[0], equals, help, value);
  const std::string exclusive = option.repeatable ? "*" : fmt::format("({})", join(option.names));
  std::vector<std::string> spelled;
  for (const auto& name : option.names) spelled.push_back(name + equals);
  return fmt::format("'{}'{{{}}}'[{}]{}'", exclusive, join(spelled, ","), help, value);
}

std::string zsh_specs(const std::vector<OptionReference>& options, std::string_view indent) {
  std::string out;
  for (const auto& option : options) out += fmt::format(" \\\n{}{}", indent, zsh_spec(option));
  return out;
}

std::string fish_quoted(std::string_view text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\\' || c == '\'') out += '\\';
    out += c;
  }
  return out + "'";
}

void write_fish_options(std::string_view condition, const std::vector<OptionReference>& options, std::ostream& out) {
  for (const auto& option : options) {
    if (option.names.empty()) continue;
    std::string line = "complete -c ropelens";
    if (!condition.empty()) line += " -n " + fish_quoted(condition);
    for (const auto& name : option.names)
      line += (name.rfind("--", 0) == 0 ? " -l " + name.substr(2) : " -s " + name.substr(1));
    if (!option.value_name.empty()) line += " -r";
    if (!option.choices.empty()) line += " -f -a " + fish_quoted(join(option.choices));
    out << line << " -d " << fish_quoted(option.help) << "\n";
  }
}

}  // namespace

void write_bash_completion(const CliReference& cli, std::ostream& out) {
  std::vector<std::string> names;
  for (const auto& command : cli.commands) names.push_back(command.name);
  out << "# bash completion for ropelens. Generated by `ropelens --generate bash`; do not edit.\n"
      << "_ropelens() {\n"
      << "  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} command= i\n"
      << "  for ((i = 1; i < COMP_CWORD; i++)); do\n"
      << "    case ${COMP_WORDS[i]} in\n"
      << "      " << join(names, "|") << ") command=${COMP_WORDS[i]}; break ;;\n"
      << "    esac\n"
      << "  done\n"
      << "  case $command:$prev in\n";
  write_bash_values("*", cli.options, out);
  for (const auto& command : cli.commands) write_bash_values(command.name, command.options, out);
  out << "  esac\n"
      << "  case $command in\n"
      << "    '') COMPREPLY=($(compgen -W \"" << join(names) << " " << join(option_names(cli.options))
      << "\" -- \"$cur\")) ;;\n";
  for (const auto& command : cli.commands) {
    out << "    " << command.name << ")\n"
        << "      if [[ $cur == -* ]]; then\n"
        << "        COMPREPLY=($(compgen -W \"" << join(option_names(options_after(command, cli)))
        << "\" -- \"$cur\"))\n";
    if (takes_files(command.options)) out << "      else\n        COMPREPLY=($(compgen -f -- \"$cur\"))\n";
    else if (const auto choices = positional_choices(command.options); !choices.empty())
      out << "      else\n        COMPREPLY=($(compgen -W \"" << join(choices) << "\" -- \"$cur\"))\n";
    out << "      fi ;;\n";
  }
  out << "  esac\n"
      << "}\n"
      << "complete -o filenames -F _ropelens ropelens\n";
}

void write_zsh_completion(const CliReference& cli, std::ostream& out) {
  out << "#compdef ropelens\n"
      << "# zsh completion for ropelens. Generated by `ropelens --generate zsh`; do not edit.\n\n"
      << "_ropelens() {\n"
      << "  local curcontext=$curcontext state line\n"
      << "  typeset -A opt_args\n"
      << "  _arguments -C" << zsh_specs(cli.options, "    ") << " \\\n"
      << "    ': :_ropelens_commands' \\\n"
      << "    '*:: :->arguments'\n"
      << "  [[ $state == arguments ]] || return\n"
      << "  curcontext=${curcontext%:*:*}:ropelens-$words[1]:\n"
      << "  case $words[1] in\n";
  for (const auto& command : cli.commands)
    out << "    " << command.name << ")\n      _arguments" << zsh_specs(options_after(command, cli), "        ")
        << " ;;\n";
  out << "  esac\n"
      << "}\n\n"
      << "_ropelens_commands() {\n"
      << "  local -a commands=(\n";
  for (const auto& command : cli.commands) {
    out << "    '" << command.name << ":" << zsh_quoted(command.summary) << "'\n";
  }
  out << "  )\n"
      << "  _describe -t commands 'ropelens command' commands\n"
      << "}\n\n"
      << "if [[ $funcstack[1] == _ropelens ]]; then\n"
      << "  _ropelens \"$@\"\n"
      << "else\n"
      << "  compdef _ropelens ropelens\n"
      << "fi\n";
}

void write_fish_completion(const CliReference& cli, std::ostream& out) {
  std::vector<std::string> names;
  for (const auto& command : cli.commands) names.push_back(command.name);
  out << "# fish completion for ropelens. Generated by `ropelens --generate fish`; do not edit.\n"
      << "complete -c ropelens -f\n";
  for (const auto& command : cli.commands)
    out << "complete -c ropelens -n '__fish_use_subcommand' -a " << command.name << " -d "
        << fish_quoted(command.summary) << "\n";
  write_fish_options("", cli.options, out);  // everywhere, after a command too
  for (const auto& command : cli.commands) {
    const std::string seen = "__fish_seen_subcommand_from " + command.name;
    if (takes_files(command.options)) out << "complete -c ropelens -n " << fish_quoted(seen) << " -F\n";
    if (const auto choices = positional_choices(command.options); !choices.empty())
      out << "complete -c ropelens -n " << fish_quoted(seen) << " -a " << fish_quoted(join(choices)) << "\n";
    write_fish_options(seen, own_options(command, cli), out);
  }
}

}  // namespace ropelens::cli
