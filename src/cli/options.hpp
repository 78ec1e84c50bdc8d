// Internal: options shared by several subcommands.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "ropelens/model_loader.hpp"

namespace ropelens::cli {

void add_format_option(CLI::App& cmd, std::string& format, std::vector<std::string> choices);
void add_set_option(CLI::App& cmd, std::vector<std::string>& edits);
void add_engine_option(CLI::App& cmd, std::string& engine);
std::vector<Edit> parse_edits(const std::vector<std::string>& specs);

// A length in tokens: 131072, 128k or 1M (powers of 1024). A value that is not one says "not an integer",
// one out of range says so.
CLI::Validator tokens_validator(std::int64_t min);
template <class T>
CLI::Option* add_tokens_option(CLI::App& cmd, const std::string& name, T& value, const std::string& help,
                               std::int64_t min = 1) {
  return cmd.add_option(name, value, help)->transform(tokens_validator(min));
}

// "0,16,32" and ranges "29-34"; throws std::invalid_argument.
std::vector<int> parse_pair_list(const std::string& text);

}  // namespace ropelens::cli
