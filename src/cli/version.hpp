// Internal: what `ropelens --version` prints.
#pragma once

#include <string_view>

namespace ropelens::cli {

// "ropelens 0.1.0 (3146df7)" when built from a git checkout (the revision read at build time, "-dirty" for
// uncommitted changes), "ropelens 0.1.0" otherwise. Defined in the generated build/generated/version.cpp.
std::string_view version_line();

}  // namespace ropelens::cli
