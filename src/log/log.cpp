// The one file that knows spdlog. It is compiled header-only into ropelens: the shared libspdlog's load-time
// relocations cost every start of the program about 1.3 M instructions, three quarters of a C++ hello world.
#include "ropelens/log/log.hpp"

#include <array>
#include <memory>

#include <spdlog/logger.h>
#include <spdlog/sinks/stdout_color_sinks.h>

namespace ropelens::logging {
namespace {

spdlog::level::level_enum to_spdlog(Level level) {
  constexpr std::array<spdlog::level::level_enum, 6> kSpdlogLevels = {spdlog::level::trace, spdlog::level::debug,
                                                                      spdlog::level::info,  spdlog::level::warn,
                                                                      spdlog::level::err,   spdlog::level::off};
  return kSpdlogLevels.at(static_cast<std::size_t>(level));
}

// Built on first use, so a run without -v never constructs it.
spdlog::logger& logger() {
  static spdlog::logger instance = [] {
    spdlog::logger made("ropelens", std::make_shared<spdlog::sinks::stderr_color_sink_mt>());
    made.set_pattern("[%H:%M:%S.%e] [%^%l%$] %v");
    made.set_level(spdlog::level::trace);  // the threshold is ours, checked before formatting
    return made;
  }();
  return instance;
}

}  // namespace

std::optional<Level> parse_level(std::string_view name) {
  for (std::size_t i = 0; i < kLevelNames.size(); ++i)
    if (kLevelNames[i] == name) return static_cast<Level>(i);
  return std::nullopt;
}

std::string_view to_string(Level level) { return kLevelNames.at(static_cast<std::size_t>(level)); }

void start(Level level, LineEscape escape) {
  detail::line_escape = escape;
  detail::threshold.store(level, std::memory_order_relaxed);
}

namespace detail {

void write(Level level, std::string_view message) {
  if (line_escape) logger().log(to_spdlog(level), line_escape(message));
  else logger().log(to_spdlog(level), message);
}

}  // namespace detail
}  // namespace ropelens::logging
