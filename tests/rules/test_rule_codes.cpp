// Rule codes live in the catalog: no code is spelled out as a string in src/ or include/, every finding carries
// a registered code, and each rule's findings carry its own.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
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

// "(CFG|CTX|…)" from the families of the registered codes.
std::string family_alternatives() {
  std::set<std::string> families;
  for (const Rule* rule : rule_registry()) {
    const std::string_view code = rule->meta.code;
    families.insert(std::string(code.substr(0, code.size() - 3)));
  }
  std::string alternatives;
  for (const auto& family : families) alternatives += (alternatives.empty() ? "" : "|") + family;
  return "(" + alternatives + ")";
}

std::vector<fs::path> sources_under(const std::string& relative) {
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(test::source_path(relative))) {
    const auto extension = entry.path().extension();
    if (entry.is_regular_file() && (extension == ".cpp" || extension == ".hpp")) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
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
    const CheckOptions options = test::rule_case_options(c);
    inputs.push_back({test::source_path(c.input), options.edits, options.target_tokens});
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
  const std::regex code_literal("\"" + family_alternatives() + "[0-9]{3}\"");
  std::string found;
  for (const char* folder : {"src", "include"})
    for (const auto& file : sources_under(folder)) {
      std::ifstream in(file);
      int number = 0;
      for (std::string line; std::getline(in, line);) {
        ++number;
        const bool comment = line.find_first_not_of(' ') == line.find("//");  // examples in comments are prose
        if (!comment && std::regex_search(line, code_literal))
          found += fmt::format("{}:{}: {}\n", fs::relative(file, test::source_path("")).string(), number, line);
      }
    }
  INFO("record a typed fact (a ConfigIssue, a Model field) and let the rule word it:\n" << found);
  CHECK(found.empty());
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
