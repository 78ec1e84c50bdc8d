// The catalog's consistency: codes, docs, case folders and docs/rules.md agree with the registry.
#include <catch2/catch.hpp>

#include <algorithm>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "ropelens/render/render.hpp"
#include "ropelens/rules/rule.hpp"
#include "ropelens/rules/rule_docs.hpp"
#include "rules/rule_case.hpp"
#include "support.hpp"

using namespace ropelens;

namespace {

std::vector<std::string> lines_of(std::string_view text) {
  std::vector<std::string> lines;
  std::istringstream in{std::string(text)};
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

const std::vector<std::string> kHeadings = {"## What it catches", "## Why it matters", "## Example",   "## Fix",
                                            "## When to ignore",  "## Default set",    "## References"};

// The first line under "## Default set".
std::string default_set_line(std::string_view doc) {
  auto lines = lines_of(doc);
  for (std::size_t i = 0; i + 1 < lines.size(); ++i)
    if (lines[i] == "## Default set") return lines[i + 1];
  return {};
}

}  // namespace

TEST_CASE("rule codes are unique, well formed and sorted", "[catalog]") {
  const auto& rules = rule_registry();
  REQUIRE_FALSE(rules.empty());
  const std::regex code_form("^[A-Z]{3,4}[0-9]{3}$"), name_form("^[a-z0-9]+(-[a-z0-9]+)*$");
  std::set<std::string_view> codes, names;
  for (std::size_t i = 0; i < rules.size(); ++i) {
    const RuleMeta& meta = rules[i]->meta;
    INFO(meta.code);
    CHECK(std::regex_match(std::string(meta.code), code_form));
    CHECK(std::regex_match(std::string(meta.name), name_form));
    CHECK(codes.insert(meta.code).second);
    CHECK(names.insert(meta.name).second);
    CHECK_FALSE(meta.summary.empty());
    CHECK(meta.summary.back() != '.');
    CHECK(rules[i]->check != nullptr);
    if (i > 0) CHECK(rules[i - 1]->meta.code < meta.code);
    CHECK(find_rule(meta.code) == rules[i]);
    CHECK(find_rule(meta.name) == rules[i]);
  }
}

TEST_CASE("each rule's doc says whether it is on by default, as its metadata does, and why", "[catalog]") {
  int opt_in = 0;
  for (const Rule* rule : rule_registry()) {
    INFO(rule->meta.code);
    const std::string line = default_set_line(rule_doc(rule->meta.code));
    const bool on = rule->meta.default_set == DefaultSet::included;
    CHECK(line.rfind(on ? "On by default: " : "Opt-in (`--select ", 0) == 0);
    CHECK(line.size() > 40);  // a reason, not just the label
    opt_in += on ? 0 : 1;
  }
  CHECK(find_rule("CTX205")->meta.default_set == DefaultSet::opt_in);
  CHECK(opt_in == 5);  // CTX203, CTX205, CTX206, CTX208, ROPE107
}

TEST_CASE("every warning or error a default rule gives cites a real failure in its doc", "[catalog]") {
  const std::regex citation(R"(Real failure: (https://github\.com/|[A-Z][a-z]+( et al\.)?, ))");
  for (const Rule* rule : rule_registry()) {
    const RuleMeta& meta = rule->meta;
    if (meta.default_set == DefaultSet::opt_in || meta.default_severity == Severity::info) continue;
    INFO(meta.code);
    const std::string doc(rule_doc(meta.code));
    const auto why = doc.find("## Why it matters"), example = doc.find("## Example");
    REQUIRE(why < example);
    CHECK(std::regex_search(doc.substr(why, example - why), citation));
  }
}

TEST_CASE("every rule has a doc with its title, summary and the seven headings", "[catalog]") {
  for (const Rule* rule : rule_registry()) {
    const RuleMeta& meta = rule->meta;
    INFO(meta.code);
    auto doc = rule_doc(meta.code);
    REQUIRE_FALSE(doc.empty());
    auto lines = lines_of(doc);
    REQUIRE(lines.size() > 3);
    CHECK(lines[0] == "# " + std::string(meta.code) + " " + std::string(meta.name));
    CHECK(lines[1].empty());
    std::string summary;
    for (std::size_t i = 2; i < lines.size() && !lines[i].empty(); ++i)
      summary += (summary.empty() ? "" : " ") + lines[i];
    CHECK(summary == std::string(meta.summary) + ".");
    std::vector<std::string> headings;
    for (const auto& line : lines)
      if (line.rfind("## ", 0) == 0) headings.push_back(line);
    CHECK(headings == kHeadings);
  }
}

TEST_CASE("every embedded doc belongs to a registered rule", "[catalog]") {
  for (const auto& doc : embedded_rule_docs()) {
    INFO("rules/*/" << doc.code << "_*.md has no registered rule in rules/registry.cpp");
    CHECK(find_rule(doc.code) != nullptr);
  }
}

TEST_CASE("every rule has bad and ok cases, and every case names a registered code", "[catalog]") {
  auto cases = test::discover_rule_cases();
  std::set<std::string> with_bad, with_ok;
  for (const auto& c : cases) {
    INFO(c.dir);
    CHECK(find_rule(c.code) != nullptr);
    CHECK((c.name.rfind("bad-", 0) == 0 || c.name.rfind("ok-", 0) == 0));
    (c.expects_findings() ? with_bad : with_ok).insert(c.code);
  }
  for (const Rule* rule : rule_registry()) {
    INFO(rule->meta.code);
    CHECK(with_bad.count(std::string(rule->meta.code)) == 1);
    CHECK(with_ok.count(std::string(rule->meta.code)) == 1);
  }
}

TEST_CASE("docs/rules.md is generated from the catalog", "[catalog]") {
  std::ostringstream markdown;
  render_rules_markdown(markdown);
  // Regenerate with `ropelens rules --format markdown > docs/rules.md` (or UPDATE_SNAPSHOTS=1).
  CHECK(test::compare_snapshot("docs/rules.md", markdown.str()).empty());
}
