// Rule codes live in the catalog: no code is spelled out as a string in src/ or include/, every finding carries
// a registered code, and each rule's findings carry its own.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "ropelens/audit/audit.hpp"
#include "ropelens/check/check.hpp"
#include "ropelens/load/model_loader.hpp"
#include "ropelens/rules/rule.hpp"
#include "rules/rule_case.hpp"
#include "support.hpp"

using namespace ropelens;
namespace fs = std::filesystem;

namespace {

std::vector<fs::path> sources_under(const std::string& relative) {
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(test::source_path(relative))) {
    const auto extension = entry.path().extension();
    if (entry.is_regular_file() && (extension == ".cpp" || extension == ".hpp")) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// A rule-code-shaped token inside a string literal: letters then three digits, as a whole word.
struct CodeLiteral {
  int line = 0;
  std::string text;  // the literal's contents
};

std::string read_text(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Walks C++ source: comments are prose and skipped; string literals (plain and raw) are collected with the line
// they start on when one holds a rule-code-shaped token.
std::vector<CodeLiteral> code_shaped_literals(const std::string& source) {
  static const std::regex code_shape(R"(\b[A-Z]+[0-9]{3}\b)");
  std::vector<CodeLiteral> found;
  const auto keep = [&](int line, std::string text) {
    if (std::regex_search(text, code_shape)) found.push_back({line, std::move(text)});
  };
  int line = 1;
  const auto count_lines = [&](std::size_t from, std::size_t to) {
    line += static_cast<int>(
        std::count(source.begin() + static_cast<long>(from), source.begin() + static_cast<long>(to), '\n'));
  };
  std::size_t i = 0;
  while (i < source.size()) {
    const char c = source[i];
    const char next = i + 1 < source.size() ? source[i + 1] : '\0';
    if (c == '\n') {
      ++line;
      ++i;
    } else if (c == '/' && next == '/') {
      i = std::min(source.find('\n', i), source.size());
    } else if (c == '/' && next == '*') {
      const std::size_t end = std::min(source.find("*/", i + 2), source.size());
      count_lines(i, end);
      i = end + 2;
    } else if (c == 'R' && next == '"' && (i == 0 || !std::isalnum(static_cast<unsigned char>(source[i - 1])))) {
      const std::size_t open = source.find('(', i + 2);
      const std::string close = ")" + source.substr(i + 2, open - i - 2) + "\"";
      const std::size_t end = std::min(source.find(close, open), source.size());
      keep(line, source.substr(open + 1, end - open - 1));
      count_lines(i, end);
      i = end + close.size();
    } else if (c == '"' || c == '\'') {
      std::size_t end = i + 1;
      while (end < source.size() && source[end] != c && source[end] != '\n') end += source[end] == '\\' ? 2 : 1;
      if (c == '"') keep(line, source.substr(i + 1, end - i - 1));
      i = end + 1;
    } else {
      ++i;
    }
  }
  return found;
}

// A model to check, as `check` would see it.
struct Input {
  std::string name;
  std::vector<Edit> edits;
  std::optional<std::int64_t> target_tokens;
};

// Every config and GGUF file under testdata/configs and testdata/gguf, and every rule case with its args.
std::vector<Input> every_input() {
  std::vector<Input> inputs;
  for (const char* folder : {"testdata/configs", "testdata/gguf"})
    for (const auto& entry : fs::recursive_directory_iterator(test::source_path(folder)))
      if (entry.is_regular_file() && (entry.path().extension() == ".json" || entry.path().extension() == ".gguf"))
        inputs.push_back({entry.path().string(), {}, std::nullopt});
  for (const auto& c : test::discover_rule_cases()) {
    const CheckOptions options = test::rule_case_options(c);  // a launch case: the model its launch.sh runs
    inputs.push_back({test::source_path(options.launch_model.value_or(c.input)), options.edits, options.target_tokens});
  }
  std::sort(inputs.begin(), inputs.end(), [](const Input& a, const Input& b) { return a.name < b.name; });
  return inputs;
}

// Each registered rule run alone on the input, with its own sink.
std::vector<std::pair<const Rule*, std::vector<Diagnostic>>> findings_per_rule(const Input& input) {
  const LoadedModel loaded = load_model(input.name, input.edits);
  const Model& model = loaded.model;
  const Model* as_trained = loaded.as_trained ? &*loaded.as_trained : nullptr;
  const Audit audit = audit_model(model, resolve_target(input.target_tokens, model), {as_trained, {}});
  std::vector<RopeTable> tables;
  for (const auto& setup : model.setups) tables.push_back(compute_rope_table(setup));
  Context context{model, tables, audit};
  context.unedited = as_trained;
  std::vector<std::pair<const Rule*, std::vector<Diagnostic>>> found;
  for (const Rule* rule : rule_registry()) {
    Sink sink(rule->meta);
    rule->check(context, sink);
    found.emplace_back(rule, sink.take());
  }
  return found;
}

}  // namespace

TEST_CASE("no rule code is written as a string literal outside rules/ and the tests", "[catalog]") {
  std::string found;
  for (const char* folder : {"src", "include"})
    for (const auto& file : sources_under(folder))
      for (const auto& literal : code_shaped_literals(read_text(file)))
        found +=
            fmt::format("{}:{}: {}\n", fs::relative(file, test::source_path("")).string(), literal.line, literal.text);
  INFO("record a typed fact (a ConfigIssue, a Model field) and let the rule word it:\n" << found);
  CHECK(found.empty());
}

TEST_CASE("the rule-code scan finds a code anywhere inside a string literal, and only there", "[catalog]") {
  const auto lines_of = [](const std::string& source) {
    std::vector<int> lines;
    for (const auto& literal : code_shaped_literals(source)) lines.push_back(literal.line);
    return lines;
  };
  CHECK(lines_of("f(\"CFG012\");") == std::vector<int>{1});
  CHECK(lines_of("x;\nf(\"no CTX201 and no CTX202 at {} tokens\");") == std::vector<int>{2});
  CHECK(lines_of("f(\"(ROPE103)\");\ng(R\"(a \"XYZ999\" b)\");") == std::vector<int>{1, 2});
  CHECK(lines_of("f(\"a \\\" CTX201\");") == std::vector<int>{1});  // after an escaped quote
  CHECK(lines_of("// \"CFG012\" in a comment\nf(); /* \"CTX201\" */ g(\"ok\"); // \"ROPE103\"").empty());
  CHECK(lines_of("int CTX201 = 1; f(\"#F0E442\", \"SIZE 80GiB\", \"ROPE1\", \"x'CFG012'\"[0]);") ==
        std::vector<int>{1});
  CHECK(lines_of("f('\"'); g(\"fine\");").empty());  // a quote in a character literal opens no string
}

TEST_CASE("every finding of a check carries a registered code", "[catalog]") {
  for (const auto& input : every_input()) {
    INFO(input.name);
    CheckOptions options;
    options.edits = input.edits;
    options.target_tokens = input.target_tokens;
    for (const auto& file : check_paths({input.name}, options).files) {
      CHECK_FALSE(file.error);
      for (const auto& d : file.diagnostics) {
        INFO(d.code << " " << d.message);
        const Rule* rule = find_rule(d.code);
        REQUIRE(rule != nullptr);
        CHECK(rule->meta.name == d.name);
      }
    }
  }
}

TEST_CASE("a rule's findings carry its own code and name", "[catalog]") {
  for (const auto& input : every_input()) {
    INFO(input.name);
    for (const auto& [rule, found] : findings_per_rule(input))
      for (const auto& d : found) {
        INFO(rule->meta.code << ": " << d.message);
        CHECK(d.code == rule->meta.code);
        CHECK(d.name == rule->meta.name);
      }
  }
}

TEST_CASE("every issue normalize records is reported by some rule at its pointer", "[catalog]") {
  for (const auto& input : every_input()) {
    INFO(input.name);
    const Model model = load_model(input.name, input.edits).model;
    std::set<std::string> reported;
    for (const auto& [rule, found] : findings_per_rule(input))
      for (const auto& d : found) reported.insert(d.where.pointer);
    for (const auto& issue : model.issues) {
      INFO("issue kind " << issue.detail.index() << " at '" << issue.pointer << "'");
      CHECK(reported.count(issue.pointer) == 1);
    }
  }
}
