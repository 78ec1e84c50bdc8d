#include "ropelens/documents/options.hpp"

#include <algorithm>
#include <charconv>
#include <map>
#include <stdexcept>
#include <string_view>

#include <fmt/format.h>

#include "ropelens/model/units.hpp"

namespace ropelens {

std::vector<Edit> parse_edits(const std::vector<std::string>& specs) {
  std::vector<Edit> edits;
  for (const auto& spec : specs) edits.push_back(parse_edit(spec));
  return edits;
}

std::optional<KvDtype> parse_kv_dtype_option(const std::string& dtype) {
  if (dtype.empty()) return std::nullopt;
  if (auto parsed = parse_kv_dtype(dtype)) return parsed;
  throw std::invalid_argument(fmt::format("--kv-dtype {}: not one of bf16, f16, f32, fp8, q8_0, q4_0", dtype));
}

std::int64_t parse_memory_option(const std::string& size) {
  try {
    return parse_byte_size(size);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(fmt::format("--memory: {}", e.what()));
  }
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

Deployment resolve_stack_option(const std::vector<std::string>& values, const ProjectSettings& settings) {
  return values.empty() ? resolve_deployment(settings.stack, "stack")
                        : resolve_deployment(parse_stack(values, "--stack"), "--stack");
}

namespace {

// A typo in a selector would silently switch a rule off (or select nothing): it is a usage error instead.
const std::string& require_selector(const std::string& flag, const std::string& selector) {
  if (auto problem = selector_problem(selector); !problem.empty())
    throw std::invalid_argument(fmt::format("{}: {}", flag, problem));
  return selector;
}

std::map<std::string, Severity> parse_severity_overrides(const std::vector<std::string>& specs) {
  std::map<std::string, Severity> out;
  for (const auto& spec : specs) {
    auto equals = spec.find('=');
    auto level = equals == std::string::npos ? std::nullopt : parse_severity(spec.substr(equals + 1));
    if (!level) throw std::invalid_argument(fmt::format("--severity '{}': expected CODE=error|warning|info", spec));
    out[require_selector("--severity", spec.substr(0, equals))] = *level;
  }
  return out;
}

}  // namespace

ResolvedRuleOptions resolve_rule_options(const RuleOptions& options, const ProjectSettings& settings) {
  ResolvedRuleOptions resolved;
  CheckOptions& check = resolved.check;
  check.target_tokens = options.target ? options.target : settings.target_tokens;
  check.training.trained_length = options.trained_length;
  check.training.extended_length = options.extended_length;
  check.trained_lengths = settings.trained_lengths;
  check.selection = settings.selection;
  for (const auto& selector : options.select) require_selector("--select", selector);
  if (!options.select.empty()) check.selection.select = options.select;
  for (const auto& selector : options.extend_select)
    check.selection.extend_select.push_back(require_selector("--extend-select", selector));
  for (const auto& selector : options.ignore) check.selection.ignore.push_back(require_selector("--ignore", selector));
  for (const auto& [code, level] : parse_severity_overrides(options.severity)) check.selection.severity[code] = level;
  check.scan = scan_filter(settings, options.exclude);
  check.memory_budget = settings.memory_budget;
  if (!options.memory.empty()) check.memory_budget = parse_memory_option(options.memory);
  check.tensor_parallel = options.tp;
  check.kv_dtype = parse_kv_dtype_option(options.kv_dtype);
  check.deployment = resolve_stack_option(options.stack, settings);
  resolved.fail_on = settings.fail_on.value_or(Severity::warning);
  if (!options.fail_on.empty()) {
    const auto level = parse_severity(options.fail_on);
    if (!level)
      throw std::invalid_argument(fmt::format("--fail-on {}: expected error, warning or info", options.fail_on));
    resolved.fail_on = *level;
  }
  return resolved;
}

}  // namespace ropelens
