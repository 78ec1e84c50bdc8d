// Running the catalog: selection, severity overrides, ordering, and the check pipeline over files.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ropelens/audit/audit.hpp"
#include "ropelens/engines/engine_report.hpp"
#include "ropelens/engines/launch.hpp"
#include "ropelens/input/input.hpp"
#include "ropelens/memory/kv_cache.hpp"
#include "ropelens/load/model_loader.hpp"
#include "ropelens/audit/audit.hpp"
#include "ropelens/check/baseline.hpp"
#include "ropelens/model/diagnostic.hpp"
#include "ropelens/rules/rule.hpp"

namespace ropelens {

struct RuleSelection {
  std::vector<std::string> select;         // codes, names, prefixes or ALL; empty = the default set
  std::vector<std::string> extend_select;  // added to `select` (or to the default set)
  std::vector<std::string> ignore;
  std::map<std::string, Severity> severity;  // per code or name
};

bool rule_matches(const RuleMeta& meta, const std::string& selector);
bool rule_selected(const RuleMeta& meta, const RuleSelection& selection);
// "" when the selector names a rule (code or name), a prefix of a code, or ALL; else why not, with the
// nearest code or name ("unknown rule code, name or prefix 'CTX2O1' (did you mean 'CTX201'?)").
std::string selector_problem(const std::string& selector);

// Runs every selected rule on one context; findings sorted by pointer then code.
std::vector<Diagnostic> run_rules(const Context& context, const RuleSelection& selection);

// One checked file: everything a check renderer needs.
struct FileResult {
  std::string path;
  std::optional<std::string> error;    // the file could not be read; nothing else is filled
  std::optional<std::string> skipped;  // a config.json a scan found that is no model's: why (nothing else is filled)
  // A model named by id (Org/Name, ollama:NAME): the file read, shown_path (relative under the working directory,
  // else absolute). Findings point at it; `path` keeps the id.
  std::optional<std::string> resolved_file;
  Model model;
  std::vector<Diagnostic> diagnostics;  // without those a baseline holds
  Audit audit;
  std::shared_ptr<const EngineReport> engines;  // with --engine
  std::optional<BaselineMatch> baseline;        // with a baseline

  // The file findings point at: the resolved file of a model id, else `path`.
  const std::string& finding_file() const { return resolved_file ? *resolved_file : path; }
};

struct CheckCounts {
  int files = 0;  // checked or unreadable; skipped files are not counted here
  int errors = 0;
  int warnings = 0;
  int infos = 0;
  int unreadable_files = 0;
  int skipped_files = 0;
  bool baseline_used = false;
  int baseline_suppressed = 0;
  std::vector<BaselineEntry> baseline_fixed;  // in path order
  std::vector<std::string> scan_notes;        // e.g. a folder whose .gitignore could not be honoured
  void add(const FileResult& file);
  void add(const CheckCounts& other);
};

struct CheckReport {
  std::int64_t target_tokens = 0;
  std::vector<FileResult> files;  // skipped files are left out (their paths are in `skipped`)
  std::vector<std::string> skipped;
  CheckCounts totals;
  CheckCounts counts() const { return totals; }
};

// .ropelens.json "trained_length": {"GLOB": N}: the length the configs a glob matches were trained at, for a
// model that really was trained further than the evidence says. GLOB is over the config's path relative to
// `base` (the folder holding .ropelens.json), with exclude's syntax.
struct TrainedLengthRule {
  std::string glob;
  std::string base;
  std::int64_t tokens = 0;
};
// The first rule matching the config at `path` (as shown, relative to the working directory); none for "-" or a
// revision's blob ("HEAD:config.json").
const TrainedLengthRule* trained_length_rule(const std::vector<TrainedLengthRule>& rules, const std::string& path);
// `training` with the trained length a rule gives `path`, unless --trained-length already states one.
TrainingOverrides training_for(const TrainingOverrides& training, const std::vector<TrainedLengthRule>& rules,
                               const std::string& path);
// The same for a tracked file read at a revision (`diff --git`): `work_tree_path` is where the file sits in the work
// tree, whether or not it exists there now.
TrainingOverrides training_for_tracked(const TrainingOverrides& training, const std::vector<TrainedLengthRule>& rules,
                                       const std::string& work_tree_path);

// The config a GGUF file was converted from (LoadedModel::source) as evidence of its training: when the file holds
// the RoPE the converter writes for it (no theta, scaling or layout difference), the config's trained length bounds
// the file's, as an earlier version's would.
std::optional<EarlierVersion> conversion_source_evidence(const LoadedModel& loaded,
                                                         const std::vector<TrainedLengthRule>& rules);
// Everything known about how a loaded file was trained, in one order for every command: the lengths stated
// (--trained-length, else .ropelens.json's rule for its path), else the config a GGUF file was converted from, else
// the earlier version a baseline recorded. The known bases are matched by the audit itself, except for a GGUF file
// whose RoPE differs from its config's (the conversion findings name that cause).
TrainingOverrides training_evidence(const LoadedModel& loaded, const TrainingOverrides& stated,
                                    const std::vector<TrainedLengthRule>& rules, const Baseline* baseline = nullptr);

struct CheckOptions {
  std::optional<std::int64_t> target_tokens;  // none: each model's declared length (resolve_target)
  TrainingOverrides training;
  std::vector<TrainedLengthRule> trained_lengths;  // .ropelens.json: per path, when --trained-length is not given
  RuleSelection selection;
  std::vector<Edit> edits;                   // --set, applied to every file
  std::optional<std::string> revision;       // --revision, for Hugging Face ids
  std::optional<std::string> source;         // --source: the config every GGUF file checked was converted from
  std::vector<Engine> engines;               // --engine: add each file's engine views to the report
  ScanFilter scan;                           // what directory scans leave out
  bool force_exclude = false;                // filter named paths as a scan would (pre-commit names every changed file)
  std::shared_ptr<const Baseline> baseline;  // suppress the findings it holds
  bool keep_findings = false;                // RenderedFile::findings is filled (--write-baseline)
  std::optional<std::int64_t> memory_budget;      // --memory: one GPU's bytes for weights plus KV cache (CTX210)
  int tensor_parallel = 1;                        // --tp: the GPUs the model is split over (CTX210)
  std::optional<KvDtype> kv_dtype;                // --kv-dtype: none: the config's dtype
  Deployment deployment;                          // --stack: the engines and versions the rules and views cover
  unsigned jobs = 0;                              // -j: threads that read and check files (0: available_cores())
  std::vector<std::string> serve_commands;        // --serve: launch commands, checked before the paths
  std::optional<std::string> launch_model;        // --model: the model launches run, instead of the one they name
  std::shared_ptr<const FileBytes> launch_input;  // the same held in memory (a browser's model), over launch_model
  std::shared_ptr<const Launch> launch;           // set by check_launch for the rules (SRV); none for a plain file
};

// Checks one loaded file (load_model): the audit reads its training history from the file before its edits.
FileResult check_model(LoadedModel loaded, const CheckOptions& options);
// Checks a file held in memory as check checks a file named on its command line: one that cannot be read is an
// unreadable result. BytesNotRead (a part not yet read) is thrown, for the caller to read and call again.
FileResult check_file_bytes(const FileBytes& file, const CheckOptions& options);
// Checks one launch (engines/launch.hpp): its model (--model, else the one it names) loaded with the overrides its
// engine version applies, audited at the length it serves, with that engine version as the deployment; every finding
// points at the launch's line. Throws InputError when the model cannot be read.
FileResult check_launch(Launch launch, const CheckOptions& options);
// Every launch in a launch file's text (read_launches: a script, a Modelfile, a Compose file or manifest), checked as
// `check FILE` checks it: one result for the file, its launches' findings together. Throws as check_launch does.
FileResult check_launch_file(const std::string& file, std::string_view text, const CheckOptions& options);
// The launches of one --serve command, each checked (a model that cannot be read is that launch's unreadable
// result); a command that starts no engine ropelens knows is one unreadable result, named --serve.
std::vector<FileResult> check_serve_command(std::string_view command, const CheckOptions& options);
// What a launch of `engine` runs under the deployment: its pin, else the newest release ropelens places.
LaunchRelease launch_release(const Deployment& deployment, Engine engine);
// The engine a flag-only fragment is read for: the stack's only engine; none without a stack or with several.
std::optional<Engine> fragment_engine(const Deployment& deployment);

// The findings about the config itself (the CFG and GGUF rules): what inspect lists as its problems.
std::vector<Diagnostic> config_findings(const LoadedModel& loaded);
// Checks every file under the paths in sorted order, handing each result to `on_file` as soon as it is
// ready, so memory stays flat however many files there are.
CheckCounts check_paths_streaming(const std::vector<std::string>& paths, const CheckOptions& options,
                                  const std::function<void(FileResult&&)>& on_file);

// A checked file reduced to its part of the output. The full result is freed by the worker that built it:
// freeing it on the writing thread made glibc's allocator a tenth of a directory scan.
struct RenderedFile {
  std::string path;
  std::optional<std::string> error;    // the file could not be read
  std::optional<std::string> skipped;  // not a model config (a scan passed over it)
  CheckCounts counts;                  // this file's findings
  std::string part;
  std::vector<Diagnostic> findings;       // with CheckOptions::keep_findings (e.g. to write a baseline)
  std::optional<EarlierVersion> trained;  // with keep_findings: the file's training, as a baseline records it
};
// The same, with each file's output rendered by `render` on the worker thread that checked it (`render`
// must not touch shared state); `on_file` still receives the files in sorted order.
CheckCounts check_paths_streaming(const std::vector<std::string>& paths, const CheckOptions& options,
                                  const std::function<std::string(const FileResult&)>& render,
                                  const std::function<void(RenderedFile&&)>& on_file);
// The same, collected (for tests and small inputs).
CheckReport check_paths(const std::vector<std::string>& paths, const CheckOptions& options);

}  // namespace ropelens
