// .ropelens.json: a default target, rule selection and severity overrides for a working tree.
#include <algorithm>
#include <filesystem>

#include <fmt/format.h>

#include "ropelens/log/log.hpp"
#include "ropelens/check/project_settings.hpp"
#include "ropelens/model/text.hpp"
#include "ropelens/model/units.hpp"
#include "ropelens/engines/deployment.hpp"

namespace ropelens {
namespace fs = std::filesystem;

namespace {

std::optional<fs::path> find_settings_file(fs::path directory) {
  std::error_code ec;
  for (int depth = 0; depth < 64 && !directory.empty(); ++depth) {
    fs::path candidate = directory / ".ropelens.json";
    if (fs::is_regular_file(candidate, ec)) return candidate;
    if (directory == directory.parent_path()) break;
    directory = directory.parent_path();
  }
  return std::nullopt;
}

// Every key .ropelens.json may hold; anything else is a typo that would silently switch a setting off.
const std::vector<std::string>& known_keys() {
  static const std::vector<std::string> keys = {"exclude", "extend_exclude", "extend_select", "fail_on",
                                                "ignore",  "memory",         "select",        "severity",
                                                "stack",   "target",         "trained_length"};
  return keys;
}

void require_known_keys(const nlohmann::json& root, const std::string& file) {
  for (const auto& [key, value] : root.items())
    if (std::find(known_keys().begin(), known_keys().end(), key) == known_keys().end())
      throw InputError(file, fmt::format("/{}: unknown setting{}; expected one of: {}", key,
                                         did_you_mean(key, known_keys()), fmt::join(known_keys(), ", ")));
}

std::string require_selector(const nlohmann::json& item, const std::string& file, const std::string& pointer) {
  if (!item.is_string()) throw InputError(file, fmt::format("{} must be a rule code, name or prefix", pointer));
  std::string selector = item.get<std::string>();
  if (auto problem = selector_problem(selector); !problem.empty()) throw InputError(file, pointer + ": " + problem);
  return selector;
}

std::vector<std::string> selector_list(const nlohmann::json& value, const std::string& file, const char* key) {
  if (!value.is_array())
    throw InputError(file, fmt::format("/{} must be a list of rule codes, names or prefixes", key));
  std::vector<std::string> out;
  for (std::size_t i = 0; i < value.size(); ++i)
    out.push_back(require_selector(value[i], file, fmt::format("/{}/{}", key, i)));
  return out;
}

std::int64_t target_of(const nlohmann::json& value, const std::string& file) {
  try {
    if (value.is_number_unsigned()) return parse_token_count(std::to_string(value.get<std::uint64_t>()));
    if (value.is_string()) return parse_token_count(value.get<std::string>());
  } catch (const std::invalid_argument& e) {
    throw InputError(file, fmt::format("/target: {}", e.what()));
  }
  throw InputError(file, "/target must be a token count such as 131072 or \"128k\"");
}

std::int64_t memory_of(const nlohmann::json& value, const std::string& file) {
  try {
    if (value.is_number_unsigned()) return parse_byte_size(std::to_string(value.get<std::uint64_t>()) + "B");
    if (value.is_string()) return parse_byte_size(value.get<std::string>());
  } catch (const std::invalid_argument& e) {
    throw InputError(file, fmt::format("/memory: {}", e.what()));
  }
  throw InputError(file, "/memory must be a size such as \"80GiB\" or a number of bytes");
}

std::vector<std::string> glob_list(const nlohmann::json& value, const std::string& file, const char* key) {
  const std::string expected = fmt::format("/{} must be a list of globs such as \"vendor\" or \"models/old/**\"", key);
  if (!value.is_array()) throw InputError(file, expected);
  std::vector<std::string> globs;
  for (const auto& item : value) {
    if (!item.is_string() || item.get<std::string>().empty()) throw InputError(file, expected);
    globs.push_back(item.get<std::string>());
  }
  return globs;
}

// "stack": ["vllm", "llama.cpp@main", "sglang@0.5.16"], each version checked against the engine's version table.
Stack stack_of(const nlohmann::json& value, const std::string& file) {
  const std::string expected =
      "/stack must be a list of engines such as [\"vllm\", \"llama.cpp\"], each optionally @VERSION";
  if (!value.is_array()) throw InputError(file, expected);
  Stack stack;
  for (std::size_t i = 0; i < value.size(); ++i) {
    if (!value[i].is_string()) throw InputError(file, expected);
    const std::string pointer = fmt::format("/stack/{}", i);
    try {
      Stack one = parse_stack({value[i].get<std::string>()}, pointer);
      resolve_deployment(one, pointer);  // a version that is neither a key nor a release is an error here
      if (std::find(stack.entries.begin(), stack.entries.end(), one.entries.front()) == stack.entries.end())
        stack.entries.push_back(one.entries.front());
    } catch (const std::invalid_argument& e) {
      throw InputError(file, e.what());
    }
  }
  return stack;
}

// "trained_length": {"models/qwen/*": 131072, "**/long-*/config.json": "256k"}, in the file's order.
std::vector<TrainedLengthRule> trained_lengths_of(const nlohmann::json& value, const std::string& file,
                                                  const std::string& base) {
  const std::string expected = "/trained_length must map path globs to token counts, e.g. {\"models/qwen/*\": 131072}";
  if (!value.is_object()) throw InputError(file, expected);
  std::vector<TrainedLengthRule> rules;
  for (const auto& [glob, tokens] : value.items()) {
    const std::string pointer = "/trained_length/" + glob;
    if (glob.empty()) throw InputError(file, expected);
    try {
      std::int64_t count = 0;
      if (tokens.is_number_unsigned()) count = parse_token_count(std::to_string(tokens.get<std::uint64_t>()));
      else if (tokens.is_string()) count = parse_token_count(tokens.get<std::string>());
      else throw InputError(file, pointer + " must be a token count such as 131072 or \"128k\"");
      rules.push_back({glob, base, count});
    } catch (const std::invalid_argument& e) {
      throw InputError(file, fmt::format("{}: {}", pointer, e.what()));
    }
  }
  return rules;
}

Severity severity_of(const nlohmann::json& value, const std::string& file, const std::string& pointer) {
  auto severity = value.is_string() ? parse_severity(value.get<std::string>()) : std::nullopt;
  if (!severity) throw InputError(file, pointer + " must be error, warning or info");
  return *severity;
}

}  // namespace

ProjectSettings load_project_settings(const std::string& start_directory) {
  auto file = find_settings_file(start_directory);
  if (!file) {
    logging::debug("no .ropelens.json in {} or its parents", start_directory);
    return {};
  }
  logging::info("project settings from {}", file->string());
  return parse_project_settings(read_config(file->string()));
}

ProjectSettings parse_project_settings(const Document& doc) {
  ProjectSettings settings;
  settings.path = doc.path;
  settings.directory = fs::path(doc.path).parent_path().string();
  if (settings.directory.empty()) settings.directory = ".";
  const auto& root = doc.root;
  if (!root.is_object()) throw InputError(doc.path, "must be a JSON object of settings");
  require_known_keys(root, doc.path);
  if (auto it = root.find("target"); it != root.end()) settings.target_tokens = target_of(*it, doc.path);
  if (auto it = root.find("memory"); it != root.end()) settings.memory_budget = memory_of(*it, doc.path);
  if (auto it = root.find("stack"); it != root.end()) settings.stack = stack_of(*it, doc.path);
  if (auto it = root.find("trained_length"); it != root.end()) {
    std::error_code ec;
    const std::string base = fs::absolute(settings.directory, ec).lexically_normal().string();
    settings.trained_lengths = trained_lengths_of(*it, doc.path, base);
  }
  if (auto it = root.find("fail_on"); it != root.end()) settings.fail_on = severity_of(*it, doc.path, "/fail_on");
  if (auto it = root.find("select"); it != root.end())
    settings.selection.select = selector_list(*it, doc.path, "select");
  if (auto it = root.find("extend_select"); it != root.end())
    settings.selection.extend_select = selector_list(*it, doc.path, "extend_select");
  if (auto it = root.find("ignore"); it != root.end())
    settings.selection.ignore = selector_list(*it, doc.path, "ignore");
  if (auto it = root.find("exclude"); it != root.end()) settings.exclude = glob_list(*it, doc.path, "exclude");
  if (auto it = root.find("extend_exclude"); it != root.end())
    settings.extend_exclude = glob_list(*it, doc.path, "extend_exclude");
  if (auto it = root.find("severity"); it != root.end()) {
    if (!it->is_object()) throw InputError(doc.path, "/severity must map rule codes to error, warning or info");
    for (const auto& [code, level] : it->items()) {
      const std::string pointer = "/severity/" + code;
      require_selector(code, doc.path, pointer);
      settings.selection.severity[code] = severity_of(level, doc.path, pointer);
    }
  }
  return settings;
}

namespace {

const TrainedLengthRule* rule_matching(const std::vector<TrainedLengthRule>& rules, const std::string& path) {
  std::error_code ec;
  const fs::path file = fs::absolute(path, ec).lexically_normal();
  for (const TrainedLengthRule& rule : rules) {
    const std::string relative = file.lexically_relative(rule.base).generic_string();
    if (relative.empty() || relative.starts_with("..")) continue;
    if (glob_match(rule.glob, relative)) return &rule;
  }
  return nullptr;
}

TrainingOverrides with_rule(const TrainingOverrides& training, const TrainedLengthRule* rule) {
  TrainingOverrides out = training;
  if (out.trained_length || !rule) return out;
  out.trained_length = rule->tokens;
  out.trained_length_from = fmt::format(".ropelens.json trained_length \"{}\"", rule->glob);
  return out;
}

}  // namespace

const TrainedLengthRule* trained_length_rule(const std::vector<TrainedLengthRule>& rules, const std::string& path) {
  if (rules.empty() || path.empty() || path == "-") return nullptr;
  std::error_code ec;
  if (!fs::exists(path, ec)) return nullptr;  // a revision's blob, a model id: no path to match
  return rule_matching(rules, path);
}

TrainingOverrides training_for(const TrainingOverrides& training, const std::vector<TrainedLengthRule>& rules,
                               const std::string& path) {
  return with_rule(training, trained_length_rule(rules, path));
}

TrainingOverrides training_for_tracked(const TrainingOverrides& training, const std::vector<TrainedLengthRule>& rules,
                                       const std::string& work_tree_path) {
  if (rules.empty() || work_tree_path.empty()) return training;
  return with_rule(training, rule_matching(rules, work_tree_path));
}

ScanFilter scan_filter(const ProjectSettings& settings, const std::vector<std::string>& command_line_excludes) {
  std::error_code ec;
  const std::string settings_folder = fs::absolute(settings.directory, ec).lexically_normal().string();
  ScanFilter filter;
  if (settings.exclude) filter.excludes = exclude_patterns(*settings.exclude, settings_folder);
  for (auto& pattern : exclude_patterns(settings.extend_exclude, settings_folder)) filter.excludes.push_back(pattern);
  for (auto& pattern : exclude_patterns(command_line_excludes, fs::current_path(ec).string()))
    filter.excludes.push_back(pattern);
  return filter;
}

}  // namespace ropelens
