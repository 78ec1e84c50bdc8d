// Every command × every format name (× every --engine for table): a format in the command's map renders in that
// format; any other is refused with a usage error naming the formats the command prints, never a fallback.
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ropelens/render/formats.hpp"
#include "support.hpp"

using ropelens::test::kQwen3;
using ropelens::test::run_cli;

namespace {

const std::string kLlama32 = "testdata/configs/llama/llama-3.2-3b.json";

struct Command {
  std::string name;       // as the refusal names it
  std::string arguments;  // before --format
  std::vector<std::string> formats;
};

std::vector<Command> commands() {
  using namespace ropelens;
  std::vector<Command> out = {
      {"inspect", "inspect " + kQwen3, format_names(inspect_formats())},
      {"table", "table " + kQwen3, format_names(table_formats())},
      {"check", "check " + kQwen3 + " --target 131072", format_names(check_formats())},
      {"diff", "diff " + kLlama32 + " " + kQwen3 + " --target 131072", format_names(diff_formats())},
      {"suggest", "suggest " + kQwen3 + " --target 131072", format_names(suggest_formats())},
      {"rules", "rules", format_names(rules_formats())},
      {"explain", "explain unseen-angles", format_names(explain_formats())},
  };
  for (const char* engine : {"transformers", "vllm", "sglang", "llama.cpp", "all"})
    out.push_back({"table --engine", "table " + kQwen3 + " --engine " + engine, format_names(engine_formats())});
  return out;
}

std::set<std::string> every_format_name() {
  std::set<std::string> names;
  for (const auto& command : commands()) names.insert(command.formats.begin(), command.formats.end());
  return names;
}

bool every_line_starts_with(const std::string& text, const std::string& prefix) {
  std::size_t from = 0;
  while (from < text.size()) {
    const std::size_t end = std::min(text.find('\n', from), text.size());
    if (end > from && text.compare(from, prefix.size(), prefix) != 0) return false;
    from = end + 1;
  }
  return true;
}

// Which format a document is written in, from its shape.
std::string format_of(const std::string& out) {
  if (out.rfind("<svg", 0) == 0 || out.rfind("<?xml", 0) == 0) return "svg";
  if (!out.empty() && out[0] == '{') {
    const auto doc = nlohmann::json::parse(out, nullptr, false);
    if (doc.is_discarded()) return "broken json";
    return doc.contains("runs") && doc.value("version", "") == "2.1.0" ? "sarif" : "json";
  }
  if (!out.empty() && every_line_starts_with(out, "::")) return "github";
  const std::string first_line = out.substr(0, out.find('\n'));
  if (out.find("\n|---") != std::string::npos || out.find("\n| ---") != std::string::npos) return "markdown";
  if (std::count(first_line.begin(), first_line.end(), ',') >= 2 && first_line.find(' ') == std::string::npos)
    return "csv";
  return "text";
}

}  // namespace

TEST_CASE("every command renders each format of its map and refuses every other one by name") {
  const auto names = every_format_name();
  CHECK(names == std::set<std::string>{"text", "json", "csv", "markdown", "svg", "sarif", "github"});
  for (const auto& command : commands())
    for (const auto& format : names) {
      const std::string arguments = command.arguments + " --format " + format;
      INFO(arguments);
      const auto result = run_cli(arguments);
      const bool available = std::count(command.formats.begin(), command.formats.end(), format) == 1;
      if (available) {
        CHECK(result.exit_code != 2);
        CHECK(result.err.empty());
        CHECK(format_of(result.out) == format);
      } else {
        CHECK(result.exit_code == 2);
        CHECK(result.out.empty());
        for (const auto& offered : command.formats) CHECK(result.err.find(offered) != std::string::npos);
      }
    }
}

TEST_CASE("table --engine refuses a table-only format and says what it prints") {
  const auto result = run_cli("table " + kQwen3 + " --engine all --format csv");
  CHECK(result.exit_code == 2);
  CHECK(result.out.empty());
  CHECK(result.err == "ropelens: error: --format csv: table --engine has no csv output; it prints text, json\n");
}

TEST_CASE("a format map's names are what --format accepts and what its help lists") {
  const auto help = run_cli("diff --help").out;
  CHECK(help.find("output format: text, json, markdown, sarif, github") != std::string::npos);
  CHECK(run_cli("table --help").out.find("output format: text, json, csv, markdown, svg") != std::string::npos);
}
