// Reading a git repository through the git command: old file contents, the files a change touched, and the
// files .gitignore leaves in. Git runs as a child process from an argument vector (never a shell), with
// standard input closed and its output bounded; every failure is an InputError naming what was asked.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace ropelens {

constexpr std::size_t kMaxGitListingBytes = 64u << 20;  // file lists; a repository with a million paths fits

// Runs `git ARGS...` in `directory` and returns its standard output. Throws InputError (naming `what`) when
// git cannot be started, prints more than `max_output_bytes`, or exits non-zero (with git's first error line).
std::string run_git(const std::string& directory, const std::vector<std::string>& args, const std::string& what,
                    std::size_t max_output_bytes);

// The work tree `directory` lies in, found by looking for `.git` in it and its parents (no child process);
// none outside a work tree.
std::optional<std::string> enclosing_work_tree(const std::string& directory);

// The top folder of the work tree holding `directory` (`git rev-parse --show-toplevel`).
std::string git_top_level(const std::string& directory);

// Throws InputError unless `revision` names a commit ("unknown revision 'origin/mian'").
void require_git_revision(const std::string& top_level, const std::string& revision);

enum class GitChange { added, deleted, modified, renamed };

struct ChangedFile {
  GitChange change = GitChange::modified;
  std::string old_path;  // relative to the top level; empty when added
  std::string new_path;  // relative to the top level; empty when deleted
};

// The files that differ between `old_revision` and `new_revision` (none: the work tree, untracked files that
// .gitignore does not exclude included) under the pathspecs, taken literally and relative to `directory`
// (`git diff --name-status -z -M`; a rename is one change, not a deletion and an addition).
std::vector<ChangedFile> git_changed_files(const std::string& directory, const std::string& old_revision,
                                           const std::optional<std::string>& new_revision,
                                           const std::vector<std::string>& pathspecs);

// The bytes of `path` (relative to the top level) at `revision` (the same bytes `git show REV:path` prints),
// at most `max_bytes`.
std::string git_file_at(const std::string& top_level, const std::string& revision, const std::string& path,
                        std::size_t max_bytes);

// The files under `directory` that git tracks or would track (`git ls-files --cached --others
// --exclude-standard`: .gitignore, .git/info/exclude and core.excludesFile honoured) whose path matches one
// of the glob pathspecs, relative to `directory`.
std::vector<std::string> git_listed_files(const std::string& directory, const std::vector<std::string>& globs);

}  // namespace ropelens
