#include "ropelens/documents/options.hpp"

#include <algorithm>
#include <charconv>
#include <map>
#include <memory>
#include <stdexcept>
#include <string_view>

#include <fmt/format.h>

#include "ropelens/check/baseline.hpp"
#include "ropelens/input/input.hpp"
#include "ropelens/model/units.hpp"

namespace ropelens {

std::vector<Edit> parse_edits(const std::vector<std::string>& specs) {
  std::vector<Edit> edits;
  for (const auto& spec : specs) edits.push_back(parse_edit(spec));
  return edits;
}

std::optional<KvDtype> parse_kv_dtype_option(const std::string& dtype, std::string_view label) {
  if (dtype.empty()) return std::nullopt;
  return parse_kv_dtype(chosen(kv_dtype_choices(), dtype, label));
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
    const auto equals = spec.find('=');
    if (equals == std::string::npos)
      throw std::invalid_argument(fmt::format("--severity '{}': expected CODE=error|warning|info", spec));
    const std::string level = spec.substr(equals + 1);
    chosen(severity_choices(), level, fmt::format("--severity {}", spec));
    out[require_selector("--severity", spec.substr(0, equals))] = *parse_severity(level);
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
  check.kv_dtype = parse_kv_dtype_option(options.kv_dtype, "--kv-dtype");
  check.deployment = resolve_stack_option(options.stack, settings);
  resolved.fail_on = settings.fail_on.value_or(Severity::warning);
  if (!options.fail_on.empty())
    resolved.fail_on = *parse_severity(chosen(severity_choices(), options.fail_on, "--fail-on"));
  return resolved;
}

ResolvedRuleOptions resolve_check_request(const CheckRequest& request, const ProjectSettings& settings) {
  ResolvedRuleOptions resolved = resolve_rule_options(request.rules, settings);
  CheckOptions& check = resolved.check;
  check.edits = parse_edits(request.edits);
  check.revision = request.revision;
  check.source = request.source;
  check.force_exclude = request.force_exclude;
  check.jobs = request.jobs;
  for (const std::string& command : request.serve)
    check.serve_commands.push_back(command == "-" ? read_stdin().text : command);
  check.launch_model = request.model;
  check.deployment = with_engine_option(std::move(check.deployment), request.engine);
  if (!request.engine.empty())
    check.engines = check.deployment.viewed(chosen(engine_choice_list(), request.engine, "--engine"));
  if (!request.baseline.empty()) check.baseline = std::make_shared<const Baseline>(Baseline::read(request.baseline));
  return resolved;
}

}  // namespace ropelens
