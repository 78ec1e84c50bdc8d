// Reader-level fuzz target for .ropelens.json: arbitrary bytes through the JSON reader and the settings
// parser. Only InputError may come out; a setting it accepts must name real rules.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_support.hpp"
#include "ropelens/check/project_settings.hpp"

using namespace ropelens;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const ProjectSettings settings =
        parse_project_settings(parse_config(".ropelens.json", std::string(reinterpret_cast<const char*>(data), size)));
    for (const auto& selector : settings.selection.select)
      fuzz::require(selector_problem(selector).empty(), "accepted an unknown selector " + selector);
    if (settings.target_tokens) fuzz::require(*settings.target_tokens >= 1, "accepted a target below 1");
  } catch (const InputError&) {
  }
  return 0;
}
