// Every enumerated value an option takes, listed once: the command line checks its options against these lists
// (src/cli/choices.hpp), and the command line, `import ropelens` and the WebAssembly module check a value inside a
// list or a spec (--kv-dtype bf16,fp9; --severity CODE=eror) through `chosen`, so every wrong value names the nearest
// right one.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace ropelens {

struct Choices {
  std::vector<std::string> values;  // in the order help lists them
};

const Choices& kv_dtype_choices();  // bf16 f16 f32 fp8 q8_0 q4_0
const Choices& severity_choices();  // error warning info (--fail-on, --severity CODE=LEVEL)
Choices engine_choice_list();       // every engine and "all"
Choices format_choices(std::vector<std::string> formats);

// "'fp9' is not one of bf16, …, q4_0 (did you mean 'fp8'?)" (empty when `value` is one of `choices`).
std::string choice_refusal(const Choices& choices, const std::string& value);
// `value` when it is one of `choices`; else std::invalid_argument "LABEL: " and the refusal (without "LABEL: " when
// `label` is empty).
const std::string& chosen(const Choices& choices, const std::string& value, std::string_view label);

}  // namespace ropelens
