// Internal: every enumerated value the command line takes, listed once. Options check their value against these
// lists (one_of), values inside a list or a spec (--kv-dtype bf16,fp9; --severity CODE=eror) through `chosen`, and
// the Python module through the same functions, so every wrong value names the nearest right one.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

namespace ropelens::cli {

struct Choices {
  std::vector<std::string> values;  // in the order help lists them
};

const Choices& kv_dtype_choices();   // bf16 f16 f32 fp8 q8_0 q4_0
const Choices& severity_choices();   // error warning info (--fail-on, --severity CODE=LEVEL)
const Choices& color_choices();      // auto always never
const Choices& log_level_choices();  // trace … off
const Choices& generate_choices();   // man bash zsh fish
Choices engine_choice_list();        // every engine and "all"
Choices format_choices(std::vector<std::string> formats);

// `value` when it is one of `choices`; else std::invalid_argument "LABEL: 'fp9' is not one of bf16, …, q4_0 (did
// you mean 'fp8'?)" (without "LABEL: " when `label` is empty).
const std::string& chosen(const Choices& choices, const std::string& value, std::string_view label);

// The option's check: the same refusal, for CLI11 (which prefixes the option's name). Shown in help as CLI11's
// IsMember is ({a,b,c}), which the man page and the completions read.
CLI::Validator one_of(const Choices& choices);

}  // namespace ropelens::cli
