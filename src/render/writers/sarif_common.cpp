#include "render/writers/sarif_common.hpp"

#include <filesystem>

#include <fmt/format.h>

#include "render/check/check_renderers.hpp"
#include "ropelens/rules/rule.hpp"
#include "ropelens/rules/rule_docs.hpp"

namespace ropelens::render_detail {

using nlohmann::json;

namespace {

constexpr std::string_view kStdinShown = "<stdin>";

bool unreserved(unsigned char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
         c == '_' || c == '~';
}

// Every byte but unreserved characters and '/' as %XX: spaces, '#', '%', '?', ':' and non-ASCII included.
std::string percent_encoded(std::string_view path) {
  std::string out;
  out.reserve(path.size());
  for (unsigned char c : path) {
    if (unreserved(c) || c == '/') out += static_cast<char>(c);
    else out += fmt::format("%{:02X}", c);
  }
  return out;
}

json rule_metadata(const Rule& rule) {
  return {{"id", rule.meta.code},
          {"name", rule.meta.name},
          {"shortDescription", {{"text", rule.meta.summary}}},
          {"help", {{"text", rule_doc(rule.meta.code)}, {"markdown", rule_doc(rule.meta.code)}}},
          {"defaultConfiguration",
           {{"level", sarif_level(rule.meta.default_severity)},
            {"enabled", rule.meta.default_set == DefaultSet::included}}}};
}

json tool_json() {
  json rules = json::array();
  for (const Rule* rule : rule_registry()) rules.push_back(rule_metadata(*rule));
  return {{"driver",
           {{"name", "ropelens"},
            {"version", ROPELENS_VERSION},
            {"informationUri", "https://github.com/ropelens/ropelens"},
            {"rules", rules}}}};
}

// A member of runs[0], written at indent 6 after the member before it.
std::string run_member(const char* key, const json& value) {
  return fmt::format(",\n      \"{}\": {}", key,
                     indent_json(value.dump(2, ' ', false, json::error_handler_t::replace), 6));
}

json artifact_location_json(std::string_view shown_path) {
  json location = {{"uri", artifact_uri(shown_path)}};
  if (under_source_root(shown_path)) location["uriBaseId"] = kSrcRoot;
  return location;
}

json notification_json(const SarifNotification& failed) {
  return {
      {"level", "error"},
      {"descriptor", {{"id", "unreadable-file"}}},
      {"locations", json::array({{{"physicalLocation", {{"artifactLocation", artifact_location_json(failed.path)}}}}})},
      {"message", {{"text", failed.message}}}};
}

}  // namespace

std::string sarif_level(Severity severity) {
  switch (severity) {
    case Severity::error: return "error";
    case Severity::warning: return "warning";
    case Severity::info: return "note";
  }
  return "note";
}

bool under_source_root(std::string_view shown_path) {
  return shown_path != kStdinShown && !shown_path.empty() && shown_path.front() != '/';
}

std::string artifact_uri(std::string_view shown_path) {
  if (shown_path == kStdinShown) return "file:///dev/stdin";
  if (!under_source_root(shown_path)) return "file://" + percent_encoded(shown_path);
  return percent_encoded(shown_path);
}

std::string linked_path(std::string_view shown_path) {
  return under_source_root(shown_path) ? std::string(shown_path) : artifact_uri(shown_path);
}

std::string folder_uri(const std::string& folder) {
  std::string path = std::filesystem::path(folder).generic_string();
  if (path.empty() || path.back() != '/') path += '/';
  return "file://" + percent_encoded(path);
}

std::string source_root_uri() {
  std::error_code ec;
  return folder_uri(std::filesystem::current_path(ec).string());
}

void write_artifact_location(JsonWriter& w, std::string_view shown_path) {
  w.begin_object().member("uri", artifact_uri(shown_path));
  if (under_source_root(shown_path)) w.member("uriBaseId", kSrcRoot);
  w.end_object();
}

const std::map<std::string, int, std::less<>>& sarif_rule_indices() {
  static const std::map<std::string, int, std::less<>> indices = [] {
    std::map<std::string, int, std::less<>> out;
    for (const Rule* rule : rule_registry()) out.emplace(std::string(rule->meta.code), static_cast<int>(out.size()));
    return out;
  }();
  return indices;
}

// Keys in the order nlohmann's dump(2) sorts them. GitHub needs a startLine on every result: a GGUF key has
// no line, so it is line 1 with the key's byte offset.
void write_sarif_result(JsonWriter& w, std::string_view path, const Diagnostic& d,
                        const std::optional<std::string_view>& baseline_state) {
  std::string text = d.message;
  if (!d.help.empty()) text += "\nhelp: " + d.help;
  w.begin_object();
  if (baseline_state) w.member("baselineState", *baseline_state);
  w.member("level", sarif_level(d.severity));
  w.key("locations").begin_array().begin_object();
  w.key("logicalLocations").begin_array().begin_object();
  w.member("fullyQualifiedName", d.where.pointer).member("kind", "member").end_object().end_array();
  w.key("physicalLocation").begin_object();
  write_artifact_location(w.key("artifactLocation"), path);
  w.key("region").begin_object();
  if (d.where.byte_offset) w.member("byteOffset", static_cast<std::int64_t>(*d.where.byte_offset));
  if (d.where.column) w.member("startColumn", *d.where.column);
  w.member("startLine", d.where.line.value_or(1));
  w.end_object();
  w.end_object().end_object().end_array();
  w.key("message").begin_object().member("text", text).end_object();
  w.key("partialFingerprints").begin_object().member(kFingerprintKey, finding_fingerprint(d)).end_object();
  w.member("properties", d.facts).member("ruleId", d.code);
  if (auto it = sarif_rule_indices().find(d.code); it != sarif_rule_indices().end()) w.member("ruleIndex", it->second);
  w.end_object();
}

std::string sarif_log_head() {
  return "{\n  \"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\",\n  \"runs\": [\n    {\n      "
         "\"results\": [";
}

std::string sarif_run_tail(const std::vector<SarifNotification>& unreadable, const json& properties,
                           const std::string& source_root) {
  json invocation = {{"executionSuccessful", unreadable.empty()}};
  if (!unreadable.empty()) {
    json notifications = json::array();
    for (const auto& failed : unreadable) notifications.push_back(notification_json(failed));
    invocation["toolExecutionNotifications"] = notifications;
  }
  std::string tail = run_member("invocations", json::array({invocation}));
  tail += run_member("originalUriBaseIds",
                     {{kSrcRoot, {{"uri", source_root.empty() ? source_root_uri() : folder_uri(source_root)}}}});
  if (!properties.empty()) tail += run_member("properties", properties);
  tail += sarif_tool_member();
  return tail + "\n    }\n  ],\n  \"version\": \"2.1.0\"\n}\n";
}

const std::string& sarif_tool_member() {
  static const std::string member = run_member("tool", tool_json());  // the registry and the docs never change
  return member;
}

}  // namespace ropelens::render_detail
