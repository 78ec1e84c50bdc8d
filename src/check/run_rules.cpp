#include <algorithm>

#include <fmt/format.h>

#include "ropelens/check/check.hpp"
#include "ropelens/model/text.hpp"

namespace ropelens {

bool rule_matches(const RuleMeta& meta, const std::string& selector) {
  if (selector == "ALL") return true;
  if (selector == meta.name) return true;
  return meta.code.substr(0, std::min(meta.code.size(), selector.size())) == selector;
}

bool rule_selected(const RuleMeta& meta, const RuleSelection& selection) {
  auto matches = [&](const std::string& s) { return rule_matches(meta, s); };
  const bool selected = selection.select.empty()
                            ? meta.default_set == DefaultSet::included
                            : std::any_of(selection.select.begin(), selection.select.end(), matches);
  const bool extended = std::any_of(selection.extend_select.begin(), selection.extend_select.end(), matches);
  return (selected || extended) && std::none_of(selection.ignore.begin(), selection.ignore.end(), matches);
}

std::string selector_problem(const std::string& selector) {
  std::vector<std::string> known = {"ALL"};
  for (const Rule* rule : rule_registry()) {
    if (rule_matches(rule->meta, selector) && !selector.empty()) return "";
    known.emplace_back(rule->meta.code);
    known.emplace_back(rule->meta.name);
  }
  return fmt::format("unknown rule code, name or prefix '{}'{}", selector, did_you_mean(selector, known));
}

namespace {

std::optional<Severity> override_for(const RuleMeta& meta, const RuleSelection& selection) {
  std::optional<Severity> best;
  std::size_t best_length = 0;
  for (const auto& [selector, severity] : selection.severity)
    if (rule_matches(meta, selector) && selector.size() >= best_length) {
      best = severity;
      best_length = selector.size();
    }
  return best;
}

}  // namespace

std::vector<Diagnostic> run_rules(const Context& context, const RuleSelection& selection) {
  std::vector<Diagnostic> all;
  for (const Rule* rule : rule_registry()) {
    if (!rule_selected(rule->meta, selection)) continue;
    Sink sink(rule->meta);
    rule->check(context, sink);
    auto found = sink.take();
    auto forced = override_for(rule->meta, selection);
    for (auto& d : found) {
      if (forced) d.severity = *forced;
      all.push_back(std::move(d));
    }
  }
  std::stable_sort(all.begin(), all.end(), [](const Diagnostic& a, const Diagnostic& b) {
    return std::tie(a.where.pointer, a.code) < std::tie(b.where.pointer, b.code);
  });
  return all;
}

}  // namespace ropelens
