// .ropelens.json: a default target, rule selection and severity overrides for a working tree.
#include <filesystem>

#include <fmt/format.h>

#include "ropelens/project_settings.hpp"

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

std::vector<std::string> string_list(const nlohmann::json& value, const std::string& file, const char* key) {
  std::vector<std::string> out;
  if (!value.is_array()) throw InputError(file, fmt::format("/{} must be a list of codes", key));
  for (const auto& item : value) {
    if (!item.is_string()) throw InputError(file, fmt::format("/{} must be a list of codes", key));
    out.push_back(item.get<std::string>());
  }
  return out;
}

}  // namespace

ProjectSettings load_project_settings(const std::string& start_directory) {
  ProjectSettings settings;
  auto file = find_settings_file(start_directory);
  if (!file) return settings;
  Document doc = read_config(file->string());
  settings.path = doc.path;
  const auto& root = doc.root;
  if (auto it = root.find("target"); it != root.end()) {
    if (!it->is_number_integer() || it->get<long long>() < 1) throw InputError(doc.path, "/target must be a positive whole number");
    settings.target_tokens = it->get<std::int64_t>();
  }
  if (auto it = root.find("fail_on"); it != root.end()) {
    settings.fail_on = it->is_string() ? parse_severity(it->get<std::string>()) : std::nullopt;
    if (!settings.fail_on) throw InputError(doc.path, "/fail_on must be error, warning or info");
  }
  if (auto it = root.find("select"); it != root.end()) settings.selection.select = string_list(*it, doc.path, "select");
  if (auto it = root.find("ignore"); it != root.end()) settings.selection.ignore = string_list(*it, doc.path, "ignore");
  if (auto it = root.find("severity"); it != root.end()) {
    if (!it->is_object()) throw InputError(doc.path, "/severity must map codes to error, warning or info");
    for (const auto& [code, level] : it->items()) {
      auto severity = level.is_string() ? parse_severity(level.get<std::string>()) : std::nullopt;
      if (!severity) throw InputError(doc.path, fmt::format("/severity/{} must be error, warning or info", code));
      settings.selection.severity[code] = *severity;
    }
  }
  return settings;
}

}  // namespace ropelens
