// Baseline files: reading, matching findings against them, and writing them.
#include "ropelens/check/baseline.hpp"

#include <algorithm>
#include <filesystem>
#include <tuple>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "ropelens/input/input.hpp"

namespace ropelens {
namespace fs = std::filesystem;

namespace {

constexpr int kBaselineSchemaVersion = 1;
constexpr const char* kStdin = "<stdin>";

fs::path absolute_folder_of(const std::string& file) {
  std::error_code ec;
  return fs::absolute(fs::path(file), ec).lexically_normal().parent_path();
}

std::string absolute_key(const fs::path& folder, const std::string& path) {
  if (path == kStdin) return path;
  const fs::path given(path);
  return (given.is_absolute() ? given : folder / given).lexically_normal().generic_string();
}

std::string text_member(const nlohmann::json& entry, const char* key, const std::string& file, const std::string& at) {
  auto it = entry.find(key);
  if (it == entry.end() || !it->is_string())
    throw InputError(file, fmt::format("{}/{}: expected a string (is this a ropelens baseline?)", at, key));
  return it->get<std::string>();
}

BaselineEntry entry_from_json(const nlohmann::json& item, const std::string& file, const std::string& at) {
  if (!item.is_object()) throw InputError(file, at + ": expected an object");
  BaselineEntry entry;
  entry.path = text_member(item, "path", file, at);
  entry.code = text_member(item, "code", file, at);
  entry.pointer = text_member(item, "pointer", file, at);
  entry.fingerprint = text_member(item, "fingerprint", file, at);
  if (auto it = item.find("message"); it != item.end() && it->is_string()) entry.message = it->get<std::string>();
  if (auto it = item.find("severity"); it != item.end() && it->is_string())
    entry.severity = parse_severity(it->get<std::string>()).value_or(Severity::warning);
  return entry;
}

std::int64_t count_member(const nlohmann::json& entry, const char* key, const std::string& file,
                          const std::string& at) {
  auto it = entry.find(key);
  if (it == entry.end() || !it->is_number_integer() || it->get<std::int64_t>() < 1)
    throw InputError(file, fmt::format("{}/{}: expected a positive whole number of tokens", at, key));
  return it->get<std::int64_t>();
}

EarlierVersion trained_from_json(const nlohmann::json& item, const std::string& file, const std::string& at) {
  if (!item.is_object()) throw InputError(file, at + ": expected an object");
  return {text_member(item, "path", file, at), count_member(item, "declared", file, at),
          count_member(item, "trained_tokens", file, at), text_member(item, "rope", file, at)};
}

// A path as shown, relative to `folder` (where the baseline file lies) when it can be.
std::string relative_to(const fs::path& folder, const fs::path& cwd, const std::string& path) {
  if (path == kStdin) return path;
  const std::string relative = fs::path(absolute_key(cwd, path)).lexically_relative(folder).generic_string();
  return relative.empty() ? path : relative;
}

bool same_finding(const BaselineEntry& entry, const Diagnostic& finding, const std::string& fingerprint) {
  return entry.code == finding.code && entry.pointer == finding.where.pointer && entry.fingerprint == fingerprint;
}

}  // namespace

BaselineEntry baseline_entry(const std::string& path, const Diagnostic& finding) {
  return {path, finding.code, finding.where.pointer, finding_fingerprint(finding), finding.message, finding.severity};
}

nlohmann::json to_json(const BaselineEntry& entry) {
  return {{"code", entry.code}, {"fingerprint", entry.fingerprint}, {"message", entry.message},
          {"path", entry.path}, {"pointer", entry.pointer},         {"severity", to_string(entry.severity)}};
}

Baseline Baseline::read(const std::string& file) {
  const Document document = read_config(file);
  const nlohmann::json& root = document.root;
  auto version = root.find("schema_version");
  if (version == root.end() || !version->is_number_integer() || version->get<int>() != kBaselineSchemaVersion)
    throw InputError(document.path, fmt::format("/schema_version: expected {} (a baseline written by ropelens "
                                                "check --write-baseline)",
                                                kBaselineSchemaVersion));
  auto findings = root.find("findings");
  if (findings == root.end() || !findings->is_array())
    throw InputError(document.path, "/findings: expected a list of findings");
  Baseline baseline;
  baseline.file_ = document.path;
  baseline.directory_ = absolute_folder_of(file).generic_string();
  for (std::size_t i = 0; i < findings->size(); ++i) {
    BaselineEntry entry = entry_from_json((*findings)[i], document.path, fmt::format("/findings/{}", i));
    baseline.by_file_[absolute_key(baseline.directory_, entry.path)].push_back(std::move(entry));
  }
  if (auto trained = root.find("trained_lengths"); trained != root.end()) {
    if (!trained->is_array()) throw InputError(document.path, "/trained_lengths: expected a list of files");
    for (std::size_t i = 0; i < trained->size(); ++i) {
      EarlierVersion seen = trained_from_json((*trained)[i], document.path, fmt::format("/trained_lengths/{}", i));
      const std::string key = absolute_key(baseline.directory_, seen.source);
      seen.source = fmt::format("{} in the baseline {}", seen.source, document.path);
      baseline.trained_[key] = std::move(seen);
    }
  }
  return baseline;
}

std::string Baseline::key_of(const std::string& shown) const {
  std::error_code ec;
  return absolute_key(fs::current_path(ec), shown);
}

BaselineMatch Baseline::apply(const std::string& path, std::vector<Diagnostic>& findings) const {
  BaselineMatch match;
  auto it = by_file_.find(key_of(path));
  if (it == by_file_.end()) return match;
  std::vector<bool> used(it->second.size(), false);
  auto held = [&](const Diagnostic& finding) {
    const std::string fingerprint = finding_fingerprint(finding);
    for (std::size_t i = 0; i < it->second.size(); ++i) {
      if (used[i] || !same_finding(it->second[i], finding, fingerprint)) continue;
      used[i] = true;
      return true;
    }
    return false;
  };
  const auto before = findings.size();
  findings.erase(std::remove_if(findings.begin(), findings.end(), held), findings.end());
  match.suppressed = static_cast<int>(before - findings.size());
  for (std::size_t i = 0; i < it->second.size(); ++i)
    if (!used[i]) {
      match.fixed.push_back(it->second[i]);
      match.fixed.back().path = path;
    }
  return match;
}

std::optional<EarlierVersion> Baseline::earlier_version_of(const std::string& path) const {
  auto it = trained_.find(key_of(path));
  if (it == trained_.end()) return std::nullopt;
  return it->second;
}

std::vector<BaselineEntry> Baseline::entries_of_missing_files() const {
  std::vector<BaselineEntry> fixed;
  std::error_code ec;
  for (const auto& [key, entries] : by_file_) {
    if (key == kStdin || fs::exists(key, ec)) continue;
    for (const auto& entry : entries) {
      fixed.push_back(entry);
      fixed.back().path = shown_path(key);
    }
  }
  return fixed;
}

std::string baseline_document(const std::string& file, std::vector<BaselineEntry> entries,
                              std::vector<EarlierVersion> trained) {
  const fs::path folder = absolute_folder_of(file);
  std::error_code ec;
  const fs::path cwd = fs::current_path(ec);
  for (auto& entry : entries) entry.path = relative_to(folder, cwd, entry.path);
  std::sort(entries.begin(), entries.end(), [](const BaselineEntry& a, const BaselineEntry& b) {
    return std::tie(a.path, a.pointer, a.code, a.fingerprint) < std::tie(b.path, b.pointer, b.code, b.fingerprint);
  });
  nlohmann::json findings = nlohmann::json::array();
  for (const auto& entry : entries) findings.push_back(to_json(entry));
  for (auto& seen : trained) seen.source = relative_to(folder, cwd, seen.source);
  std::sort(trained.begin(), trained.end(),
            [](const EarlierVersion& a, const EarlierVersion& b) { return a.source < b.source; });
  nlohmann::json lengths = nlohmann::json::array();
  for (const auto& seen : trained)
    lengths.push_back(
        {{"declared", seen.declared}, {"path", seen.source}, {"rope", seen.rope}, {"trained_tokens", seen.trained}});
  const nlohmann::json document = {{"findings", findings},
                                   {"schema_version", kBaselineSchemaVersion},
                                   {"tool", "ropelens"},
                                   {"trained_lengths", lengths}};
  return document.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace ropelens
