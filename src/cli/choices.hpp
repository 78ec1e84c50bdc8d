// Internal: the command line's enumerated values. The lists the core shares with `import ropelens` and the
// WebAssembly module (kv_dtype_choices, severity_choices, engine_choice_list, format_choices, and `chosen`) are in
// ropelens/documents/choices.hpp; options check their value against a list through one_of, so every wrong value names
// the nearest right one.
#pragma once

#include <CLI/CLI.hpp>

#include "ropelens/documents/choices.hpp"

namespace ropelens::cli {

using ropelens::Choices;
using ropelens::chosen;
using ropelens::engine_choice_list;
using ropelens::format_choices;
using ropelens::kv_dtype_choices;
using ropelens::severity_choices;

const Choices& color_choices();      // auto always never
const Choices& log_level_choices();  // trace … off
const Choices& generate_choices();   // man bash zsh fish

// The option's check: `chosen`'s refusal, for CLI11 (which prefixes the option's name). Shown in help as CLI11's
// IsMember is ({a,b,c}), which the man page and the completions read.
CLI::Validator one_of(const Choices& choices);

}  // namespace ropelens::cli
