// Baselines: the findings a project has accepted, so a check reports only what is new. A finding matches an
// entry on its file, code, JSON pointer and fingerprint (finding_fingerprint: its facts, not its wording), so
// rewording a message keeps the match while the same problem at a new target or on new pairs is new.
// A baseline also records each file's trained length and the RoPE that produced it, so a later check of a file
// whose max_position_embeddings was raised with its RoPE unchanged is audited at the length recorded (CTX211).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ropelens/audit/audit.hpp"
#include "ropelens/model/diagnostic.hpp"

namespace ropelens {

struct BaselineEntry {
  std::string path;  // the file as shown (relative to the working directory when it lies under it)
  std::string code;
  std::string pointer;
  std::string fingerprint;
  std::string message;  // for people reading the file; never matched
  Severity severity = Severity::warning;
};

BaselineEntry baseline_entry(const std::string& path, const Diagnostic& finding);
// {"code", "fingerprint", "message", "path", "pointer", "severity"}: as a baseline file, JSON and SARIF hold it.
nlohmann::json to_json(const BaselineEntry& entry);

// What a baseline did to one file's findings.
struct BaselineMatch {
  int suppressed = 0;                // findings the baseline holds, removed from the report
  std::vector<BaselineEntry> fixed;  // entries for this file that matched no finding
};

class Baseline {
 public:
  Baseline() = default;
  // Reads a file written by baseline_document; throws InputError naming the file and the JSON pointer.
  static Baseline read(const std::string& file);

  const std::string& file() const { return file_; }
  // Removes the findings the baseline holds from `findings` (each entry matches one finding).
  BaselineMatch apply(const std::string& path, std::vector<Diagnostic>& findings) const;
  // Entries whose file no longer exists: fixed, though no check of this run read them.
  std::vector<BaselineEntry> entries_of_missing_files() const;
  // The file as the baseline saw it: its declared and trained lengths and its RoPE (none for a file it did not
  // record, or a baseline written before it recorded them).
  std::optional<EarlierVersion> earlier_version_of(const std::string& path) const;

 private:
  std::string file_;
  std::string directory_;                                      // entry paths in the file are relative to it
  std::map<std::string, std::vector<BaselineEntry>> by_file_;  // by absolute path ("<stdin>" as it is)
  std::map<std::string, EarlierVersion> trained_;              // by absolute path, as by_file_
  std::string key_of(const std::string& shown_path) const;
};

// The text of a baseline file holding `entries` and each checked file's training (`trained`, with
// EarlierVersion::source its path as shown), paths written relative to the folder of `file` so the baseline works
// from any working directory.
std::string baseline_document(const std::string& file, std::vector<BaselineEntry> entries,
                              std::vector<EarlierVersion> trained = {});

}  // namespace ropelens
