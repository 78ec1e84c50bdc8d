// What a change to a model's config did: the normalized fields that changed, the pairs whose frequencies
// moved, each engine's length limit, the audit at the target, and the findings the change introduced or
// fixed. Every figure comes from the code `check` and `table` run (check_model, compute_rope_table,
// engine_view): a side's findings here are exactly what `check` reports for that side.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ropelens/check/check.hpp"
#include "ropelens/engines/engine_views.hpp"

namespace ropelens {

// config_changed: a GGUF file the change left as it was, beside a config.json it changed: the file is checked against
// the config on each side, so a conversion the change made stale is a new finding on it.
enum class DiffStatus { modified, added, deleted, renamed, config_changed };
std::string_view to_string(DiffStatus status);

// A normalized value on each side: null where the side has none.
struct FieldChange {
  std::string setup;  // "" for a model-wide field, else the RoPE setup's name ("all", "sliding_attention", …)
  std::string field;  // "rope_theta", "factor", "yarn.beta_fast", …
  nlohmann::json old_value;
  nlohmann::json new_value;
  std::string old_from;  // Provenance::describe() of each side
  std::string new_from;
};

// The pair whose effective frequency moved the most.
struct LargestPairChange {
  int pair = 0;
  double old_inv_freq = 0.0;
  double new_inv_freq = 0.0;
  double ratio = 1.0;  // new / old: below 1 the pair turns slower (a longer wavelength)
};

// One RoPE setup (matched by name) on both sides, at each side's declared length (compute_rope_table).
struct SetupChange {
  std::string setup;
  bool on_old = true;
  bool on_new = true;
  int pairs_compared = 0;          // pairs both sides have
  std::vector<int> changed_pairs;  // effective theta_i differs by more than kEngineRelativeThreshold
  std::optional<LargestPairChange> largest;
  std::optional<double> old_attention_factor;
  std::optional<double> new_attention_factor;
  std::vector<int> old_out_of_range;  // the audit at each side's target
  std::vector<int> new_out_of_range;
};

// The length each engine derives from the config (its current version's LengthLimit::limit_tokens).
struct EngineLengthChange {
  EngineVersion version{};
  std::optional<std::int64_t> old_limit_tokens;  // none: no limit, or the side does not exist
  std::optional<std::int64_t> new_limit_tokens;
  std::string old_derivation;
  std::string new_derivation;
  bool changed() const { return old_limit_tokens != new_limit_tokens; }
};

struct FindingChanges {
  std::vector<Diagnostic> introduced;  // on the new side only
  std::vector<Diagnostic> fixed;       // on the old side only
  std::vector<Diagnostic> unchanged;   // on both (the new side's finding)
  // On the old side only, yet not fixed: the new side raised max_position_embeddings with the RoPE unchanged,
  // which trains nothing (CTX211), so what the old side had at the target still stands.
  std::vector<Diagnostic> kept;
};

struct ModelDiff {
  DiffStatus status = DiffStatus::modified;
  std::string path;                          // the file as shown: the new side's, or the old side's when deleted
  std::string old_path;                      // as shown on the old side ("HEAD:config.json"); empty when added
  std::string new_path;                      // as shown on the new side; empty when deleted
  std::optional<std::string> resolved_file;  // the file read for a model id on the side findings come from
  std::optional<std::string> error;          // a side could not be read: nothing else is filled
  std::optional<std::int64_t> old_target_tokens;
  std::optional<std::int64_t> new_target_tokens;
  std::vector<FieldChange> fields;
  std::vector<SetupChange> setups;
  std::vector<EngineLengthChange> engines;
  FindingChanges findings;
  // Where findings point: the file a model id resolved to, else the path as shown.
  const std::string& finding_file() const { return resolved_file ? *resolved_file : path; }
};

struct DiffCounts {
  int models = 0;
  int introduced_errors = 0;
  int introduced_warnings = 0;
  int introduced_infos = 0;
  int fixed = 0;
  int unchanged = 0;
  int kept = 0;  // FindingChanges::kept
  int unreadable = 0;
  int skipped_files = 0;  // config.json files that are no model's config on either side
};

struct DiffReport {
  std::string old_label;          // "HEAD", "main", or the old file
  std::string new_label;          // "the working tree", a revision, or the new file
  std::vector<ModelDiff> models;  // sorted by path
  // diff --git: the repository's top level; each model's path is relative to it, as git, code scanning and
  // annotations name files, from whichever folder the command ran in. Empty: paths relative to the working
  // directory.
  std::string source_root;
  DiffCounts counts;
};

// One checked side of a compared file; none when the file does not exist on that side.
using DiffSide = std::optional<FileResult>;

// Compares two checked sides (check_model on each).
ModelDiff diff_checked(DiffStatus status, const DiffSide& old_side, const DiffSide& new_side,
                       const Deployment& deployment = {});

// `ropelens diff OLD NEW`: two config files, model folders or GGUF files, in any combination. A GGUF file is checked
// against the config.json on the other side (`diff config.json model.gguf`), else against --source or the config.json
// beside it, as check does, so its conversion findings are new findings of its side.
DiffReport diff_files(const std::string& old_path, const std::string& new_path, const CheckOptions& options);

struct GitDiffRequest {
  std::string old_revision;                 // e.g. origin/main, HEAD, a merge base
  std::optional<std::string> new_revision;  // none: the working tree
  std::vector<std::string> paths;           // pathspecs relative to the working directory; empty: "."
};
// `ropelens diff --git REV [PATH...]`: every config.json and GGUF file that differs between the revisions,
// old contents read with git (no checkout needed; a GGUF blob streamed, header only; a Git LFS pointer read as its
// object in the local LFS store), directory-scan exclusions (options.scan) applied. Each GGUF side is checked against
// the config.json beside it on that side; a GGUF file beside a changed config.json, itself unchanged, is checked on
// both sides too and listed (config_changed) when its findings change.
DiffReport diff_git(const GitDiffRequest& request, const CheckOptions& options);

DiffCounts count_changes(const std::vector<ModelDiff>& models);

}  // namespace ropelens
