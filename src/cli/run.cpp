#include <algorithm>
#include <cctype>
#include <iostream>
#include <new>
#include <string_view>

#include <fmt/format.h>

#include "commands.hpp"
#include "exit_codes.hpp"
#include "generate.hpp"
#include "help_format.hpp"
#include "logging.hpp"
#include "output.hpp"
#include "ropelens/input/input.hpp"
#include "ropelens/log/log.hpp"
#include "ropelens/model/text.hpp"
#include "version.hpp"

namespace ropelens::cli {

void print_error(const std::string& message) { std::cerr << "ropelens: error: " << terminal_safe(message) << "\n"; }

void print_warning(const std::string& message) { std::cerr << "ropelens: warning: " << terminal_safe(message) << "\n"; }

int guarded(const std::function<int()>& body) {
  try {
    return body();
  } catch (const InputError& e) {
    print_error(e.what());
  } catch (const std::invalid_argument& e) {
    print_error(e.what());
  } catch (const std::bad_alloc&) {
    print_error("out of memory");
  } catch (const std::exception& e) {
    print_error(fmt::format("internal error: {}", e.what()));
  } catch (...) {
    print_error("internal error: an unknown exception");
  }
  return kExitError;
}

namespace {

std::vector<std::string> subcommand_names(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands({})) names.push_back(sub->get_name());
  return names;
}

// `ropelens help [COMMAND]`: the same text as --help.
void setup_help(CLI::App& app, Outcome& outcome, Subcommands& subcommands) {
  auto topic = std::make_shared<std::string>();
  auto* cmd = app.add_subcommand("help", "Print help for ropelens or one command");
  cmd->add_option("COMMAND", *topic, "the command to describe");
  cmd->callback([&app, topic, &outcome, &subcommands] {
    subcommands.bind_all();  // the command's options, for its help text
    if (topic->empty()) {
      std::cout << app.get_formatter()->make_help(&app, app.get_name(), CLI::AppFormatMode::Normal);
      outcome.exit_code = kExitClean;
      return;
    }
    for (const CLI::App* sub : app.get_subcommands({}))
      if (sub->get_name() == *topic) {
        std::cout << sub->help(app.get_name());  // "Usage: ropelens check …", as `ropelens check --help` says
        outcome.exit_code = kExitClean;
        return;
      }
    throw std::invalid_argument(
        fmt::format("unknown command '{}'{}", *topic, did_you_mean(*topic, subcommand_names(app))));
  });
}

// The first word that is not an option, when it names no command: "ropelens chek" → "chek".
std::optional<std::string> unknown_command(const CLI::App& app, int argc, char** argv) {
  const auto names = subcommand_names(app);
  for (int i = 1; i < argc; ++i) {
    std::string word = argv[i];
    if (!word.empty() && word[0] == '-') {
      const CLI::Option* option = word.find('=') == std::string::npos ? app.get_option_no_throw(word) : nullptr;
      if (option != nullptr && option->get_expected_max() > 0) ++i;  // skip the option's value (flags take none)
      continue;
    }
    if (std::find(names.begin(), names.end(), word) != names.end()) return std::nullopt;
    return word;
  }
  return std::nullopt;
}

// Every spelling of an option of `command`: "--target", "-o".
std::vector<std::string> option_spellings(const CLI::App& command) {
  std::vector<std::string> names;
  for (const CLI::Option* option : command.get_options()) {
    for (const auto& name : option->get_lnames()) names.push_back("--" + name);
    for (const auto& name : option->get_snames()) names.push_back("-" + name);
  }
  return names;
}

// The first word CLI11 left over that is written as an option and names none, with the nearest option of the
// command (or a global one): "unknown option '--taget' (did you mean '--target'?)".
std::optional<std::string> unknown_option_message(const CLI::App& app, const CLI::ExtrasError& error, int argc,
                                                  char** argv) {
  const std::vector<CLI::App*> chosen = app.get_subcommands();
  const CLI::App& command = chosen.empty() ? app : *chosen.front();
  const std::string left_over = error.what();
  for (int i = 1; i < argc; ++i) {
    const std::string word = argv[i];
    const std::string name = word.substr(0, word.find('='));
    const bool option_like = name.size() > 1 && name[0] == '-' && !std::isdigit(static_cast<unsigned char>(name[1]));
    if (!option_like || left_over.find(word) == std::string::npos) continue;
    if (command.get_option_no_throw(name) != nullptr || app.get_option_no_throw(name) != nullptr) continue;
    std::vector<std::string> known = option_spellings(command);
    if (&command != &app) {
      const auto global = option_spellings(app);
      known.insert(known.end(), global.begin(), global.end());
    }
    return fmt::format("unknown option '{}'{}", name, did_you_mean(name, known));
  }
  return std::nullopt;
}

int parse_and_run(CLI::App& app, Outcome& outcome, int argc, char** argv) {
  if (argc < 2) {
    std::cerr << app.help();
    return kExitError;
  }
  if (auto word = unknown_command(app, argc, argv)) {
    print_error(fmt::format("unknown command '{}'{}; commands: {}", *word, did_you_mean(*word, subcommand_names(app)),
                            fmt::join(subcommand_names(app), ", ")));
    return kExitError;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::Success& e) {  // --generate
    return app.exit(e);
  } catch (const CLI::RequiredError& e) {
    if (app.get_subcommands().empty()) {  // options but no command: show what the commands are
      std::cerr << app.help();
      return kExitError;
    }
    print_error(e.what());
    return kExitError;
  } catch (const CLI::ExtrasError& e) {
    print_error(unknown_option_message(app, e, argc, argv).value_or(e.what()));
    return kExitError;
  } catch (const CLI::ParseError& e) {
    print_error(e.what());
    return kExitError;
  }
  return outcome.exit_code;
}

}  // namespace

int run(int argc, char** argv) {
  // `ropelens --version` is a scripts' probe: answer it before building the command line (CLI11 reports the
  // version by throwing, and the first throw of a process costs as much as the rest of the start-up).
  if (argc == 2 && std::string_view(argv[1]) == "--version") {
    std::cout << version_line() << '\n';
    return kExitClean;
  }
  const logging::Stopwatch run_time;
  buffer_redirected_stdout();
  CLI::App app{"ropelens: audit a model's positional encoding (RoPE and friends) from its config.json", "ropelens"};
  app.formatter(fitted_help_formatter());  // before the subcommands, which copy it
  app.set_version_flag("--version", std::string(version_line()));
  app.require_subcommand(1);
  app.fallthrough();  // global options (-v, --log-level) may follow the command
  add_logging_options(app);
  Outcome outcome;
  Subcommands subcommands(app, outcome);
  setup_help(app, outcome, subcommands);
  add_generate_option(app, subcommands);
  const int exit_code = guarded([&] { return parse_and_run(app, outcome, argc, argv); });
  logging::info("done in {:.1f} ms, exit code {}", run_time.elapsed_ms(), exit_code);
  return exit_code;
}

}  // namespace ropelens::cli
