// `diff --git`: the model files a change touched, each side read from git or the work tree and checked.
#include <algorithm>
#include <filesystem>

#include "diffing.hpp"
#include "ropelens/diff/diff.hpp"
#include "ropelens/input/git.hpp"
#include "ropelens/input/input.hpp"
#include "ropelens/load/model_loader.hpp"

namespace ropelens {
namespace {

namespace fs = std::filesystem;

bool is_model_file(const std::string& path) {
  const std::string name = fs::path(path).filename().string();
  return name == "config.json" || (name.size() > 5 && name.compare(name.size() - 5, 5, ".gguf") == 0);
}

// One side of a changed file, checked; none when the file does not exist there or is no model's config.
struct LoadedSide {
  DiffSide result;
  bool not_a_model = false;
};

LoadedSide check_side(const std::function<LoadedModel()>& load, const std::string& shown, const CheckOptions& options) {
  LoadedSide side;
  try {
    side.result = check_model(load(), options);
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

  // A revision's file takes the trained length .ropelens.json gives its path in the work tree.
  LoadedSide at_revision(const std::string& revision, const std::string& path, const CheckOptions& options) const {
    const std::string shown = revision + ":" + path;
    CheckOptions tracked = options;
    tracked.training =
        training_for_tracked(options.training, options.trained_lengths, (fs::path(top_) / path).string());
    return check_side(
        [&] { return load_model_bytes(shown, git_file_at(top_, revision, path, kMaxConfigBytes), tracked.edits); },
        shown, tracked);
  }

  LoadedSide old_side(const std::string& path) const { return at_revision(request_.old_revision, path, options_); }

  // The new side, audited with the old side as its history (the trained length a raise cannot change).
  LoadedSide new_side(const std::string& path, const DiffSide& before) const {
    const CheckOptions options = diff_detail::with_history(options_, before);
    if (request_.new_revision) return at_revision(*request_.new_revision, path, options);
    const std::string on_disk = shown_path((fs::path(top_) / path).string());
    return check_side([&] { return load_model(on_disk, options.edits); }, on_disk, options);
  }

  // The path as the report shows it: the file in the work tree, relative to the working directory.
  std::string shown(const std::string& path) const { return shown_path((fs::path(top_) / path).string()); }

 private:
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
  for (const auto& change : git_changed_files(cwd, request.old_revision, request.new_revision, pathspecs)) {
    if (!wanted(change.old_path, sides, options) && !wanted(change.new_path, sides, options)) continue;
    LoadedSide before = change.old_path.empty() ? LoadedSide{} : sides.old_side(change.old_path);
    LoadedSide after = change.new_path.empty() ? LoadedSide{} : sides.new_side(change.new_path, before.result);
    if (!before.result && !after.result) {  // no model's config on either side
      skipped += before.not_a_model || after.not_a_model ? 1 : 0;
      continue;
    }
    DiffStatus status = status_of(change.change);
    if (!before.result) status = DiffStatus::added;
    if (!after.result) status = DiffStatus::deleted;
    ModelDiff diff = diff_checked(status, before.result, after.result, options.deployment);
    diff.path = change.new_path.empty() ? change.old_path : change.new_path;  // relative to the top level
    report.models.push_back(std::move(diff));
  }
  std::sort(report.models.begin(), report.models.end(),
            [](const ModelDiff& a, const ModelDiff& b) { return a.path < b.path; });
  report.counts = count_changes(report.models);
  report.counts.skipped_files = skipped;
  return report;
}

}  // namespace ropelens
