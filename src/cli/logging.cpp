#include "logging.hpp"

#include <memory>
#include <string>
#include <vector>

#include "options.hpp"
#include "ropelens/log/log.hpp"
#include "ropelens/model/text.hpp"

namespace ropelens::cli {
namespace {

struct LoggingOptions {
  std::int64_t verbosity = 0;
  std::string level;
};

logging::Level level_for(const LoggingOptions& options) {
  if (!options.level.empty()) return *logging::parse_level(options.level);
  if (options.verbosity >= 3) return logging::Level::trace;
  if (options.verbosity == 2) return logging::Level::debug;
  return options.verbosity == 1 ? logging::Level::info : logging::Level::off;
}

}  // namespace

void add_logging_options(CLI::App& app) {
  auto options = std::make_shared<LoggingOptions>();
  // Option callbacks run once the whole command line is read, before any subcommand's callback.
  auto start = [options] { logging::start(level_for(*options), terminal_safe); };
  app.add_flag_function(
      "-v,--verbose",
      [options, start](std::int64_t count) {
        options->verbosity = count;
        start();
      },
      "log to stderr what was read, skipped, defaulted and derived, and how long it took (-vv: more detail)");
  app.add_option_function<std::string>(
         "--log-level",
         [options, start](const std::string& level) {
           options->level = level;
           start();
         },
         "log at this level and above (default off; wins over -v)")
      ->check(one_of(log_level_choices()));
}

}  // namespace ropelens::cli
