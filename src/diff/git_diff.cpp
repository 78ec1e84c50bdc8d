// `diff --git`: the model files a change touched, each side read from git or the work tree and checked; a GGUF file
// against the config.json beside it on the same side, as check does.
#include <algorithm>
#include <filesystem>
#include <functional>
#include <set>

#include <fmt/format.h>

#include "diffing.hpp"
#include "ropelens/diff/diff.hpp"
#include "ropelens/input/git.hpp"
#include "ropelens/input/input.hpp"
#include "ropelens/load/model_loader.hpp"

namespace ropelens {
namespace {

namespace fs = std::filesystem;

bool is_gguf(const std::string& path) { return path.size() > 5 && path.compare(path.size() - 5, 5, ".gguf") == 0; }

bool is_config(const std::string& path) { return fs::path(path).filename() == "config.json"; }

bool is_model_file(const std::string& path) { return is_config(path) || is_gguf(path); }

// The config.json in the folder of `path` (relative to the top level).
std::string config_beside(const std::string& path) {
  return (fs::path(path).parent_path() / "config.json").generic_string();
}

// One side of a changed file, checked; none when the file does not exist there or is no model's config.
struct LoadedSide {
  DiffSide result;
  bool not_a_model = false;
};

LoadedSide check_side(const std::function<std::optional<LoadedModel>()>& load, const std::string& shown,
                      const CheckOptions& options) {
  LoadedSide side;
  try {
    if (std::optional<LoadedModel> loaded = load()) side.result = check_model(std::move(*loaded), options);
  } catch (const NotAModelConfig&) {
    side.not_a_model = true;
  } catch (const InputError& e) {
    FileResult failed;
    failed.path = e.file().empty() ? shown : e.file();
    failed.error = e.what();
    side.result = std::move(failed);
  }
  return side;
}

class GitSides {
 public:
  GitSides(std::string top_level, const GitDiffRequest& request, const CheckOptions& options)
      : top_(std::move(top_level)), request_(request), options_(options) {}

  // A revision's file takes the trained length .ropelens.json gives its path in the work tree; a GGUF file is paired
  // with the config.json beside it at that revision (or --source).
  LoadedSide at_revision(const std::string& revision, const std::string& path, const CheckOptions& options) const {
    const std::string shown = revision + ":" + path;
    CheckOptions tracked = options;
    tracked.training =
        training_for_tracked(options.training, options.trained_lengths, (fs::path(top_) / path).string());
    return check_side(
        [&]() -> std::optional<LoadedModel> {
          std::optional<LoadedModel> loaded = load_model_at_revision(top_, revision, path, tracked.edits);
          if (loaded && loaded->gguf) pair_at_revision(*loaded, revision, path);
          return loaded;
        },
        shown, tracked);
  }

  LoadedSide old_side(const std::string& path) const { return at_revision(request_.old_revision, path, options_); }

  // The new side, audited with the old side as its history (the trained length a raise cannot change).
  LoadedSide new_side(const std::string& path, const DiffSide& before) const {
    const CheckOptions options = diff_detail::with_history(options_, before);
    if (request_.new_revision) return at_revision(*request_.new_revision, path, options);
    const std::string on_disk = shown(path);
    return check_side(
        [&]() -> std::optional<LoadedModel> {
          LoadedModel loaded = load_model(on_disk, options.edits);
          attach_conversion_source(loaded, options.source);
          return loaded;
        },
        on_disk, options);
  }

  // The path as the report shows it: the file in the work tree, relative to the working directory.
  std::string shown(const std::string& path) const { return shown_path((fs::path(top_) / path).string()); }

  // The GGUF files in the folder of `config` on the new side (the work tree, or the new revision).
  std::vector<std::string> gguf_files_beside(const std::string& config) const {
    std::vector<std::string> found;
    const std::string folder = fs::path(config).parent_path().generic_string();
    for (auto& path : git_folder_files(top_, request_.new_revision, folder))
      if (is_gguf(path) && (request_.new_revision || fs::is_regular_file(fs::path(top_) / path)))
        found.push_back(std::move(path));
    return found;
  }

 private:
  void pair_at_revision(LoadedModel& gguf, const std::string& revision, const std::string& path) const {
    if (options_.source) return attach_conversion_source(gguf, options_.source);
    const std::string config = config_beside(path);
    try {
      std::optional<LoadedModel> source = load_model_at_revision(top_, revision, config);
      if (source) diff_detail::pair_with(gguf, source->model, fmt::format("beside it at {}", revision));
    } catch (const NotAModelConfig&) {
      gguf.model.notes.push_back(
          fmt::format("{}:{} beside it is no model's config: the conversion is not checked", revision, config));
    }
  }

  std::string top_;
  const GitDiffRequest& request_;
  const CheckOptions& options_;
};

DiffStatus status_of(GitChange change) {
  switch (change) {
    case GitChange::added: return DiffStatus::added;
    case GitChange::deleted: return DiffStatus::deleted;
    case GitChange::renamed: return DiffStatus::renamed;
    case GitChange::modified: return DiffStatus::modified;
  }
  return DiffStatus::modified;
}

bool wanted(const std::string& path, const GitSides& sides, const CheckOptions& options) {
  return !path.empty() && is_model_file(path) && !excluded_path(sides.shown(path), options.scan);
}

// A GGUF file the change left alone beside a config.json it changed: checked on both sides against that side's
// config, and reported when what it finds changes (the config's θ, scaling or rotary width moved away from the file).
void add_stale_conversions(const GitSides& sides, const std::set<std::string>& changed_configs,
                           const std::set<std::string>& changed_files, const CheckOptions& options,
                           std::vector<ModelDiff>& models) {
  std::set<std::string> checked;
  for (const auto& config : changed_configs)
    for (const auto& gguf : sides.gguf_files_beside(config)) {
      if (changed_files.count(gguf) || !checked.insert(gguf).second || !wanted(gguf, sides, options)) continue;
      LoadedSide before = sides.old_side(gguf);
      LoadedSide after = sides.new_side(gguf, before.result);
      if (!before.result || !after.result) continue;
      ModelDiff diff = diff_checked(DiffStatus::config_changed, before.result, after.result, options.deployment);
      if (!diff.error && diff.findings.introduced.empty() && diff.findings.fixed.empty()) continue;
      diff.path = gguf;
      models.push_back(std::move(diff));
    }
}

}  // namespace

DiffReport diff_git(const GitDiffRequest& request, const CheckOptions& options) {
  const std::string cwd = fs::current_path().string();
  const std::string top = git_top_level(cwd);
  require_git_revision(top, request.old_revision);
  if (request.new_revision) require_git_revision(top, *request.new_revision);
  const std::vector<std::string> pathspecs = request.paths.empty() ? std::vector<std::string>{"."} : request.paths;

  DiffReport report;
  report.old_label = request.old_revision;
  report.new_label = request.new_revision.value_or("the working tree");
  report.source_root = top;
  const GitSides sides(top, request, options);
  int skipped = 0;
  std::set<std::string> changed_files, changed_configs;
  for (const auto& change : git_changed_files(cwd, request.old_revision, request.new_revision, pathspecs)) {
    changed_files.insert(change.old_path);
    changed_files.insert(change.new_path);
    if (!wanted(change.old_path, sides, options) && !wanted(change.new_path, sides, options)) continue;
    LoadedSide before = change.old_path.empty() ? LoadedSide{} : sides.old_side(change.old_path);
    LoadedSide after = change.new_path.empty() ? LoadedSide{} : sides.new_side(change.new_path, before.result);
    if (!before.result && !after.result) {  // no model's config on either side
      skipped += before.not_a_model || after.not_a_model ? 1 : 0;
      continue;
    }
    if (after.result && !after.result->error && is_config(change.new_path)) changed_configs.insert(change.new_path);
    DiffStatus status = status_of(change.change);
    if (!before.result) status = DiffStatus::added;
    if (!after.result) status = DiffStatus::deleted;
    ModelDiff diff = diff_checked(status, before.result, after.result, options.deployment);
    diff.path = change.new_path.empty() ? change.old_path : change.new_path;  // relative to the top level
    report.models.push_back(std::move(diff));
  }
  add_stale_conversions(sides, changed_configs, changed_files, options, report.models);
  std::sort(report.models.begin(), report.models.end(),
            [](const ModelDiff& a, const ModelDiff& b) { return a.path < b.path; });
  report.counts = count_changes(report.models);
  report.counts.skipped_files = skipped;
  return report;
}

}  // namespace ropelens
