// Reading a git repository through the git command: old file contents, the files a change touched, and the
// files .gitignore leaves in. Git runs as a child process from an argument vector (never a shell), with
// standard input closed and its output bounded; every failure is an InputError naming what was asked.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
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

// One file of a revision read through `git cat-file blob` as it arrives (the same bytes `git show REV:path`
// prints, no filters: a Git LFS file is its pointer): its size first, then its bytes in order, so a blob of any size
// is read without being held. A stream closed before its end kills and reaps its git.
class GitBlobStream {
 public:
  // `path` (relative to the top level) at `revision`; none when the revision has no file there. Throws InputError
  // (naming REV:PATH) when git cannot run (`git ls-tree -l` names the blob and its size) or the path is a
  // folder or a submodule.
  static std::unique_ptr<GitBlobStream> open(const std::string& top_level, const std::string& revision,
                                             const std::string& path);
  GitBlobStream(const GitBlobStream&) = delete;
  GitBlobStream& operator=(const GitBlobStream&) = delete;
  ~GitBlobStream();

  const std::string& shown() const { return shown_; }  // "REV:PATH"
  std::uint64_t size() const { return size_; }
  // Up to `count` of the next bytes; 0 at the end of the blob. Throws InputError when git stops early.
  std::size_t read_some(char* out, std::size_t count);
  // The rest of the blob; throws InputError (saying so) when the whole blob is larger than `max_bytes`.
  std::string read_all(std::size_t max_bytes);

 private:
  explicit GitBlobStream(std::string shown);
  void spawn(const std::string& top_level, const std::string& oid);
  void wait_for_output();
  std::size_t read_raw(char* out, std::size_t count);

  std::string shown_;
  int pid_ = -1;
  int out_fd_ = -1;
  int err_fd_ = -1;
  std::string errors_;  // what git wrote to standard error (bounded)
  std::uint64_t size_ = 0;
  std::uint64_t delivered_ = 0;
};

// The bytes of `path` at `revision`, at most `max_bytes` (InputError when the file is absent or larger).
std::string git_file_at(const std::string& top_level, const std::string& revision, const std::string& path,
                        std::size_t max_bytes);

// A Git LFS pointer (git-lfs docs/spec.md): what a repository tracking a file with LFS commits in its place.
struct LfsPointer {
  std::string oid;         // sha256 of the object, 64 lowercase hex digits
  std::uint64_t size = 0;  // the object's size in bytes
};
inline constexpr std::size_t kMaxLfsPointerBytes = 1024;  // git-lfs reads no larger file as a pointer
// The pointer `bytes` hold, none when they are no LFS pointer.
std::optional<LfsPointer> parse_lfs_pointer(std::string_view bytes);

// Where an LFS pointer was found: a revision's file or a file in the work tree.
struct LfsFile {
  std::string shown;                    // as errors name it: "HEAD:m/model.gguf", "m/model.gguf"
  std::string path_in_repository;       // relative to the top level, as git lfs --include takes it
  std::optional<std::string> revision;  // none: the work tree
};
// The object a pointer names in the local LFS store of the repository holding `directory`
// (<git common dir>/lfs/objects/aa/bb/OID, or under lfs.storage). Throws InputError naming `file.shown` when the
// object is absent or its size is not the pointer's, with the command that fetches it (`git lfs fetch REMOTE REV
// --include=PATH` for a revision, `git lfs pull --include=PATH` for the work tree).
std::string lfs_object(const std::string& directory, const LfsPointer& pointer, const LfsFile& file);

// The files directly in `folder` (relative to the top level; "" for the top level) at `revision` (`git ls-tree`), or
// in the work tree when there is none (`git ls-files --cached --others --exclude-standard`: what .gitignore leaves
// in), as paths relative to the top level, sorted; folders at a revision are listed too.
std::vector<std::string> git_folder_files(const std::string& top_level, const std::optional<std::string>& revision,
                                          const std::string& folder);

// The files under `directory` that git tracks or would track (`git ls-files --cached --others
// --exclude-standard`: .gitignore, .git/info/exclude and core.excludesFile honoured) whose path matches one
// of the glob pathspecs, relative to `directory`.
std::vector<std::string> git_listed_files(const std::string& directory, const std::vector<std::string>& globs);

}  // namespace ropelens
