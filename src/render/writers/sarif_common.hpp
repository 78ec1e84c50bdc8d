// Internal: the SARIF 2.1.0 pieces `check` and `diff` share, so both logs read the same way and validate
// against the same schema (testdata/sarif/sarif-schema-2.1.0.json).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "render/writers/json_writer.hpp"
#include "ropelens/check/baseline.hpp"
#include "ropelens/model/diagnostic.hpp"

namespace ropelens::render_detail {

inline constexpr const char* kSrcRoot = "%SRCROOT%";
inline constexpr const char* kFingerprintKey = "ropelens/v1";  // partialFingerprints: finding_fingerprint

std::string sarif_level(Severity severity);

// An RFC 3986 URI reference for a path as shown: a relative path (every byte but unreserved ones and '/'
// percent-encoded) to be resolved against %SRCROOT%, a file: URI for an absolute path, and file:///dev/stdin
// for standard input.
std::string artifact_uri(std::string_view shown_path);
bool under_source_root(std::string_view shown_path);
// Where a finding is, for a reader following the link: a relative path as shown, else its file: URI.
std::string linked_path(std::string_view shown_path);
// The working directory as a file: URI ending in '/', what %SRCROOT% stands for.
std::string source_root_uri();
// file:///…/ for a folder (the top of a repository), ending in '/'.
std::string folder_uri(const std::string& folder);

// {"uri": …, "uriBaseId": "%SRCROOT%"} for a path as shown.
void write_artifact_location(JsonWriter& w, std::string_view shown_path);

// Rule indices into tool.driver.rules, by code.
const std::map<std::string, int, std::less<>>& sarif_rule_indices();

// One result. `baseline_state` ("new", "unchanged", …) is written when the findings were compared with a
// baseline or another revision.
void write_sarif_result(JsonWriter& w, std::string_view path, const Diagnostic& d,
                        const std::optional<std::string_view>& baseline_state);

// A file that could not be read, as a tool execution notification.
struct SarifNotification {
  std::string path;
  std::string message;
};

// What follows the results array of the one run: invocations (executionSuccessful false when a file could not
// be read, each such file a toolExecutionNotification), originalUriBaseIds, `properties` when not empty, and
// the tool with the rule catalog; then the end of the log. Written at `indent` 6, as inside runs[0].
// `source_root`: the folder %SRCROOT% stands for (default: the working directory).
std::string sarif_run_tail(const std::vector<SarifNotification>& unreadable, const nlohmann::json& properties,
                           const std::string& source_root = "");

// The run's `tool` member (the rule catalog, two thirds of a one-file log), as the tail writes it: built once per
// process, since neither the rules nor their docs change.
const std::string& sarif_tool_member();

// The log up to the opening of runs[0].results.
std::string sarif_log_head();

}  // namespace ropelens::render_detail
