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

// "0,16,32" and ranges "29-34"; throws std::invalid_argument.
std::vector<int> parse_pair_list(const std::string& text);

}  // namespace ropelens::cli
