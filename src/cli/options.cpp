#include "options.hpp"

#include <algorithm>
#include <charconv>
#include <stdexcept>

#include <fmt/format.h>

#include "ropelens/units.hpp"

namespace ropelens::cli {

void add_format_option(CLI::App& cmd, std::string& format, std::vector<std::string> choices) {
  std::string help = "output format: " + fmt::format("{}", fmt::join(choices, ", "));
  cmd.add_option("--format", format, help)->check(CLI::IsMember(std::move(choices)));
}

void add_set_option(CLI::App& cmd, std::vector<std::string>& edits) {
  cmd.add_option("--set", edits, "POINTER=JSON: edit the config before analysis (repeatable), e.g. "
                                 "--set '/rope_scaling={\"rope_type\":\"yarn\",\"factor\":4}'")
      ->take_all()
      ->allow_extra_args(false);
}

void add_engine_option(CLI::App& cmd, std::string& engine) {
  cmd.add_option("--engine", engine,
                 "show what an inference engine runs: transformers, vllm, sglang, llama.cpp, or all side by side")
      ->check(CLI::IsMember({"transformers", "vllm", "sglang", "llama.cpp", "all"}));
}

std::vector<Edit> parse_edits(const std::vector<std::string>& specs) {
  std::vector<Edit> edits;
  for (const auto& spec : specs) edits.push_back(parse_edit(spec));
  return edits;
}

CLI::Validator tokens_validator(std::int64_t min) {
  return CLI::Validator(
      [min](std::string& text) {
        try {
          text = std::to_string(parse_token_count(text, min));
          return std::string();
        } catch (const std::invalid_argument& e) {
          return std::string(e.what());
        }
      },
      "TOKENS");
}

namespace {

int parse_index(std::string_view text, const std::string& whole) {
  int value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value < 0)
    throw std::invalid_argument(fmt::format("--pairs '{}': '{}' is not a pair index", whole, text));
  return value;
}

}  // namespace

std::vector<int> parse_pair_list(const std::string& text) {
  std::vector<int> pairs;
  std::size_t start = 0;
  while (start <= text.size()) {
    auto comma = text.find(',', start);
    std::string_view item(text.data() + start, (comma == std::string::npos ? text.size() : comma) - start);
    auto dash = item.find('-');
    if (dash == std::string_view::npos) {
      pairs.push_back(parse_index(item, text));
    } else {
      int first = parse_index(item.substr(0, dash), text);
      int last = parse_index(item.substr(dash + 1), text);
      if (last < first || last - first > 1'000'000)
        throw std::invalid_argument(fmt::format("--pairs '{}': bad range '{}'", text, item));
      for (int p = first; p <= last; ++p) pairs.push_back(p);
    }
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  return pairs;
}

}  // namespace ropelens::cli
