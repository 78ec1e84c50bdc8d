// The diagnostic log behind -v/--verbose and --log-level: spdlog lines on stderr saying which files were read
// and skipped, which defaults and derivations were applied, and how long each phase took. It is off unless the
// command line turns it on, and then a disabled level costs one relaxed atomic load. The command line and the
// check layer log; rules and renderers never do (tests/architecture/test_layers.cpp).
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include <fmt/format.h>

namespace ropelens::logging {

// spdlog's levels (without critical), in its order, and their names.
enum class Level { trace, debug, info, warn, error, off };
inline constexpr std::array<std::string_view, 6> kLevelNames = {"trace", "debug", "info", "warn", "error", "off"};

std::optional<Level> parse_level(std::string_view name);  // trace, debug, info, warn, error, off
std::string_view to_string(Level level);

// Makes a whole log line safe for a terminal (paths, keys and values in it come from files). The command line
// passes terminal_safe (ropelens/model/text.hpp, a layer above this one); without it lines are written as they are.
using LineEscape = std::string (*)(std::string_view);

// Sends messages at `level` and above to stderr, each line through `escape`; Level::off (the default) sends
// none. Call before any thread logs.
void start(Level level, LineEscape escape = nullptr);

namespace detail {
inline std::atomic<Level> threshold{Level::off};
inline LineEscape line_escape = nullptr;
void write(Level level, std::string_view message);
}  // namespace detail

inline bool enabled(Level level) { return level >= detail::threshold.load(std::memory_order_relaxed); }

template <class... Args> void log(Level level, fmt::format_string<Args...> format, Args&&... args) {
  if (enabled(level)) detail::write(level, fmt::format(format, std::forward<Args>(args)...));
}
template <class... Args> void info(fmt::format_string<Args...> format, Args&&... args) {
  log(Level::info, format, std::forward<Args>(args)...);
}
template <class... Args> void debug(fmt::format_string<Args...> format, Args&&... args) {
  log(Level::debug, format, std::forward<Args>(args)...);
}

// Milliseconds since construction, for the timing lines.
class Stopwatch {
 public:
  double elapsed_ms() const { return std::chrono::duration<double, std::milli>(Clock::now() - start_).count(); }

 private:
  using Clock = std::chrono::steady_clock;
  Clock::time_point start_ = Clock::now();
};

}  // namespace ropelens::logging
