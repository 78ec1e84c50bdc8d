#pragma once

namespace ropelens {

// Documented in README.md and docs/cli.md.
inline constexpr int kExitClean = 0;     // nothing at or above --fail-on
inline constexpr int kExitFindings = 1;  // findings at or above --fail-on
inline constexpr int kExitError = 2;     // usage error, or an input that could not be read

}  // namespace ropelens
