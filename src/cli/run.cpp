#include <iostream>

#include <fmt/format.h>

#include "commands.hpp"
#include "exit_codes.hpp"
#include "ropelens/input.hpp"

namespace ropelens::cli {

void print_error(const std::string& message) { std::cerr << "ropelens: error: " << message << "\n"; }

int run(int argc, char** argv) {
  CLI::App app{"ropelens: audit a model's positional encoding (RoPE and friends) from its config.json"};
  app.set_version_flag("--version", std::string("ropelens ") + ROPELENS_VERSION);
  app.require_subcommand(1);
  Outcome outcome;
  setup_inspect(app, outcome);
  setup_table(app, outcome);
  setup_check(app, outcome);
  setup_explain(app, outcome);
  setup_rules(app, outcome);
  setup_suggest(app, outcome);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    print_error(e.what());
    return kExitError;
  } catch (const InputError& e) {
    print_error(e.what());
    return kExitError;
  } catch (const std::invalid_argument& e) {
    print_error(e.what());
    return kExitError;
  }
  return outcome.exit_code;
}

}  // namespace ropelens::cli
