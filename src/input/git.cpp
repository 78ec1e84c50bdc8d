// The git command as a bounded child process: posix_spawnp with an argument vector, stdin from /dev/null,
// stdout and stderr read through pipes with poll so neither can fill up and stall the child.
#include "ropelens/input/git.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <algorithm>
#include <filesystem>
#include <sstream>
#include <system_error>
#include <utility>

#include <fmt/format.h>

#include "ropelens/input/input.hpp"

extern char** environ;

namespace ropelens {
namespace fs = std::filesystem;

namespace {

constexpr std::size_t kMaxGitErrorBytes = 64u << 10;

std::string git_error_reason(int error_number) {
  return std::error_code(error_number, std::generic_category()).message();
}

class Pipe {
 public:
  Pipe() {
    if (::pipe2(fds_, O_CLOEXEC) != 0) throw std::system_error(errno, std::generic_category(), "pipe");
  }
  Pipe(const Pipe&) = delete;
  Pipe& operator=(const Pipe&) = delete;
  ~Pipe() {
    close_read();
    close_write();
  }
  int read_end() const { return fds_[0]; }
  int write_end() const { return fds_[1]; }
  void close_read() { close_fd(fds_[0]); }
  int release_read() { return std::exchange(fds_[0], -1); }
  void close_write() { close_fd(fds_[1]); }

 private:
  static void close_fd(int& fd) {
    if (fd >= 0) ::close(fd);
    fd = -1;
  }
  int fds_[2] = {-1, -1};
};

class SpawnActions {
 public:
  SpawnActions() { ::posix_spawn_file_actions_init(&actions_); }
  SpawnActions(const SpawnActions&) = delete;
  SpawnActions& operator=(const SpawnActions&) = delete;
  ~SpawnActions() { ::posix_spawn_file_actions_destroy(&actions_); }
  posix_spawn_file_actions_t* get() { return &actions_; }

 private:
  posix_spawn_file_actions_t actions_;
};

struct Captured {
  std::string out;
  std::string err;
  bool out_overflowed = false;
};

// Appends what `fd` has to `into`, keeping at most `limit` bytes; false at end of file.
bool drain(int fd, std::string& into, std::size_t limit, bool& overflowed) {
  char buffer[65536];
  const ssize_t got = ::read(fd, buffer, sizeof buffer);
  if (got < 0) return errno == EINTR || errno == EAGAIN;
  if (got == 0) return false;
  const auto count = static_cast<std::size_t>(got);
  if (into.size() + count > limit) {
    into.append(buffer, limit - into.size());
    overflowed = true;
    return false;
  }
  into.append(buffer, count);
  return true;
}

// Reads both pipes until the child closes them, or until stdout passes its limit.
Captured capture(int out_fd, int err_fd, std::size_t max_output_bytes) {
  Captured captured;
  bool out_open = true, err_open = true;
  bool err_overflowed = false;
  while (out_open || err_open) {
    pollfd fds[2] = {{out_open ? out_fd : -1, POLLIN, 0}, {err_open ? err_fd : -1, POLLIN, 0}};
    if (::poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      throw std::system_error(errno, std::generic_category(), "poll");
    }
    if (out_open && (fds[0].revents & (POLLIN | POLLHUP | POLLERR)))
      out_open = drain(out_fd, captured.out, max_output_bytes, captured.out_overflowed);
    if (captured.out_overflowed) break;
    if (err_open && (fds[1].revents & (POLLIN | POLLHUP | POLLERR)))
      err_open = drain(err_fd, captured.err, kMaxGitErrorBytes, err_overflowed) && !err_overflowed;
  }
  return captured;
}

int wait_for(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string first_error_line(const std::string& err) {
  std::size_t start = err.find_first_not_of(" \n");
  if (start == std::string::npos) return "no message";
  std::string line = err.substr(start, err.find('\n', start) - start);
  for (const char* prefix : {"fatal: ", "error: "})
    if (line.rfind(prefix, 0) == 0) line.erase(0, std::string_view(prefix).size());
  return line;
}

// Starts `git --no-pager -C directory ARGS…` with standard input from /dev/null and its output and errors into the
// write ends of `out` and `err`, which it then closes here; throws InputError naming `what` when git cannot run.
pid_t spawn_git(const std::string& directory, const std::vector<std::string>& args, Pipe& out, Pipe& err,
                const std::string& what) {
  std::vector<std::string> words = {"git", "--no-pager", "-C", directory};
  words.insert(words.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& word : words) argv.push_back(word.data());
  argv.push_back(nullptr);
  SpawnActions actions;
  ::posix_spawn_file_actions_addopen(actions.get(), STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  ::posix_spawn_file_actions_adddup2(actions.get(), out.write_end(), STDOUT_FILENO);
  ::posix_spawn_file_actions_adddup2(actions.get(), err.write_end(), STDERR_FILENO);
  pid_t pid = 0;
  const int spawned = ::posix_spawnp(&pid, "git", actions.get(), nullptr, argv.data(), environ);
  if (spawned != 0)
    throw InputError(what, spawned == ENOENT ? std::string("git is not installed or not on PATH")
                                             : "cannot run git: " + git_error_reason(spawned));
  out.close_write();
  err.close_write();
  return pid;
}

}  // namespace

std::string run_git(const std::string& directory, const std::vector<std::string>& args, const std::string& what,
                    std::size_t max_output_bytes) {
  Pipe out, err;
  const pid_t pid = spawn_git(directory, args, out, err, what);
  Captured captured;
  try {
    captured = capture(out.read_end(), err.read_end(), max_output_bytes);
  } catch (...) {
    ::kill(pid, SIGKILL);
    wait_for(pid);
    throw;
  }
  if (captured.out_overflowed) {
    ::kill(pid, SIGKILL);
    wait_for(pid);
    throw InputError(what,
                     fmt::format("git printed more than {} MiB; refusing to read further", max_output_bytes >> 20));
  }
  const int exit_code = wait_for(pid);
  if (exit_code != 0) throw InputError(what, "git: " + first_error_line(captured.err));
  return std::move(captured.out);
}

std::optional<std::string> enclosing_work_tree(const std::string& directory) {
  std::error_code ec;
  fs::path dir = fs::absolute(directory, ec).lexically_normal();
  if (ec) return std::nullopt;
  for (int depth = 0; depth < 256 && !dir.empty(); ++depth) {
    if (fs::exists(dir / ".git", ec)) return dir.string();
    if (dir == dir.parent_path()) break;
    dir = dir.parent_path();
  }
  return std::nullopt;
}

std::string git_top_level(const std::string& directory) {
  std::string top = run_git(directory, {"rev-parse", "--show-toplevel"}, directory, 1u << 16);
  while (!top.empty() && (top.back() == '\n' || top.back() == '\r')) top.pop_back();
  if (top.empty()) throw InputError(directory, "not inside a git work tree");
  return top;
}

void require_git_revision(const std::string& top_level, const std::string& revision) {
  if (revision.empty() || revision[0] == '-') throw InputError(revision, "not a git revision");
  try {
    run_git(top_level, {"rev-parse", "--verify", "--quiet", "--end-of-options", revision + "^{commit}"}, revision,
            1u << 16);
  } catch (const InputError&) {
    throw InputError(revision, "unknown git revision (git rev-parse --verify found no commit by that name)");
  }
}

namespace {

// NUL-separated words of `git … -z` output.
std::vector<std::string> split_nul(const std::string& text) {
  std::vector<std::string> words;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\0', start);
    if (end == std::string::npos) end = text.size();
    words.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return words;
}

// `--name-status -z`: a status word, then one path (two for renames and copies).
std::vector<ChangedFile> parse_name_status(const std::string& output, const std::string& what) {
  std::vector<ChangedFile> changes;
  const auto words = split_nul(output);
  for (std::size_t i = 0; i < words.size();) {
    const std::string& status = words[i++];
    const char kind = status.empty() ? '?' : status[0];
    const std::size_t paths = kind == 'R' || kind == 'C' ? 2 : 1;
    if (i + paths > words.size()) throw InputError(what, "git diff printed a truncated --name-status list");
    ChangedFile change;
    switch (kind) {
      case 'A': change = {GitChange::added, "", words[i]}; break;
      case 'C': change = {GitChange::added, "", words[i + 1]}; break;
      case 'D': change = {GitChange::deleted, words[i], ""}; break;
      case 'R': change = {GitChange::renamed, words[i], words[i + 1]}; break;
      default: change = {GitChange::modified, words[i], words[i]}; break;  // M, T (type), U (unmerged)
    }
    changes.push_back(std::move(change));
    i += paths;
  }
  return changes;
}

}  // namespace

std::vector<ChangedFile> git_changed_files(const std::string& directory, const std::string& old_revision,
                                           const std::optional<std::string>& new_revision,
                                           const std::vector<std::string>& pathspecs) {
  const std::string what = new_revision ? old_revision + ".." + *new_revision : old_revision;
  std::vector<std::string> diff = {"--literal-pathspecs", "diff",          "--name-status", "-z", "-M",
                                   "--no-relative",       "--no-ext-diff", old_revision};
  if (new_revision) diff.push_back(*new_revision);
  diff.push_back("--");
  diff.insert(diff.end(), pathspecs.begin(), pathspecs.end());
  std::vector<ChangedFile> changes = parse_name_status(run_git(directory, diff, what, kMaxGitListingBytes), what);
  if (!new_revision) {
    std::vector<std::string> untracked = {"--literal-pathspecs", "ls-files", "--others", "--exclude-standard",
                                          "--full-name",         "-z",       "--"};
    untracked.insert(untracked.end(), pathspecs.begin(), pathspecs.end());
    for (auto& path : split_nul(run_git(directory, untracked, what, kMaxGitListingBytes)))
      changes.push_back({GitChange::added, "", std::move(path)});
  }
  return changes;
}

std::string git_file_at(const std::string& top_level, const std::string& revision, const std::string& path,
                        std::size_t max_bytes) {
  const std::string shown = revision + ":" + path;
  auto blob = GitBlobStream::open(top_level, revision, path);
  if (!blob) throw InputError(shown, fmt::format("git: path '{}' does not exist in '{}'", path, revision));
  return blob->read_all(max_bytes);
}

namespace {

// One entry of `git ls-tree -l -z`: "100644 blob 3f2a…   4213\tm/config.json".
struct TreeEntry {
  std::string type;  // blob, tree, commit (a submodule)
  std::string oid;
  std::optional<std::uint64_t> size;  // blobs only
};

std::optional<TreeEntry> parse_tree_entry(const std::string& listing) {
  const std::size_t tab = listing.find('\t');
  if (tab == std::string::npos) return std::nullopt;
  std::istringstream fields(listing.substr(0, tab));
  std::string mode, size;
  TreeEntry entry;
  if (!(fields >> mode >> entry.type >> entry.oid >> size)) return std::nullopt;
  if (!size.empty() && size.size() <= 19 && size.find_first_not_of("0123456789") == std::string::npos)
    entry.size = std::stoull(size);
  return entry;
}

}  // namespace

std::unique_ptr<GitBlobStream> GitBlobStream::open(const std::string& top_level, const std::string& revision,
                                                   const std::string& path) {
  const std::string shown = revision + ":" + path;
  const std::string listing = run_git(
      top_level, {"--literal-pathspecs", "ls-tree", "-l", "-z", "--full-tree", revision, "--", path}, shown, 1u << 16);
  if (listing.empty()) return nullptr;
  const auto entry = parse_tree_entry(listing);
  if (!entry) throw InputError(shown, "git ls-tree printed an entry ropelens cannot read");
  if (entry->type != "blob" || !entry->size)
    throw InputError(shown, fmt::format("not a file at that revision (git ls-tree: a {})", entry->type));
  std::unique_ptr<GitBlobStream> blob(new GitBlobStream(shown));
  blob->size_ = *entry->size;
  blob->spawn(top_level, entry->oid);
  return blob;
}

GitBlobStream::GitBlobStream(std::string shown) : shown_(std::move(shown)) {}

GitBlobStream::~GitBlobStream() {
  for (int* fd : {&out_fd_, &err_fd_})
    if (*fd >= 0) ::close(*fd);
  if (pid_ > 0) {
    ::kill(pid_, SIGKILL);  // a blob read only in part: git would otherwise block writing the rest
    wait_for(pid_);
  }
}

void GitBlobStream::spawn(const std::string& top_level, const std::string& oid) {
  Pipe out, err;
  pid_ = spawn_git(top_level, {"cat-file", "blob", oid}, out, err, shown_);
  out_fd_ = out.release_read();
  err_fd_ = err.release_read();
}

// Waits for standard output to have bytes (or end), keeping what git says on standard error for the message.
void GitBlobStream::wait_for_output() {
  for (;;) {
    pollfd fds[2] = {{out_fd_, POLLIN, 0}, {err_fd_, POLLIN, 0}};
    if (::poll(fds, err_fd_ >= 0 ? 2 : 1, -1) < 0) {
      if (errno == EINTR) continue;
      throw std::system_error(errno, std::generic_category(), "poll");
    }
    if (err_fd_ >= 0 && (fds[1].revents & (POLLIN | POLLHUP | POLLERR))) {
      bool overflowed = false;
      if (!drain(err_fd_, errors_, kMaxGitErrorBytes, overflowed) || overflowed) {
        ::close(err_fd_);
        err_fd_ = -1;
      }
    }
    if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) return;
  }
}

std::size_t GitBlobStream::read_raw(char* out, std::size_t count) {
  for (;;) {
    wait_for_output();
    const ssize_t got = ::read(out_fd_, out, count);
    if (got >= 0) return static_cast<std::size_t>(got);
    if (errno != EINTR && errno != EAGAIN) throw InputError(shown_, "reading from git: " + git_error_reason(errno));
  }
}

std::size_t GitBlobStream::read_some(char* out, std::size_t count) {
  const std::uint64_t left = size_ - delivered_;
  if (left == 0 || count == 0) return 0;
  const std::size_t got = read_raw(out, static_cast<std::size_t>(std::min<std::uint64_t>(count, left)));
  if (got == 0)
    throw InputError(shown_, fmt::format("git cat-file stopped after {} of the blob's {} bytes{}", delivered_, size_,
                                         errors_.empty() ? "" : " (git: " + first_error_line(errors_) + ")"));
  delivered_ += got;
  return got;
}

std::string GitBlobStream::read_all(std::size_t max_bytes) {
  if (size_ > max_bytes)
    throw InputError(shown_, fmt::format("{} bytes, larger than {} MiB; ropelens reads at most that much of a file "
                                         "from git that is not GGUF",
                                         size_, max_bytes >> 20));
  std::string bytes(static_cast<std::size_t>(size_ - delivered_), '\0');
  std::size_t used = 0;
  while (used < bytes.size()) used += read_some(bytes.data() + used, bytes.size() - used);
  return bytes;
}

std::vector<std::string> git_folder_files(const std::string& top_level, const std::optional<std::string>& revision,
                                          const std::string& folder) {
  const std::string prefix = folder.empty() ? "" : folder + "/";
  std::vector<std::string> args;
  if (revision)
    args = {"--literal-pathspecs", "ls-tree", "-z", "--name-only",
            "--full-tree",         *revision, "--", folder.empty() ? "." : prefix};
  else
    args = {"ls-files",    "--cached", "--others", "--exclude-standard",
            "--full-name", "-z",       "--",       ":(glob)" + prefix + "*"};
  const std::string what = revision ? *revision + ":" + prefix : prefix.empty() ? top_level : prefix;
  std::vector<std::string> files = split_nul(run_git(top_level, args, what, kMaxGitListingBytes));
  std::sort(files.begin(), files.end());
  files.erase(std::unique(files.begin(), files.end()), files.end());
  return files;
}

std::vector<std::string> git_listed_files(const std::string& directory, const std::vector<std::string>& globs) {
  std::vector<std::string> args = {"ls-files", "--cached", "--others", "--exclude-standard", "-z", "--"};
  for (const auto& glob : globs) args.push_back(":(glob)" + glob);
  return split_nul(run_git(directory, args, directory, kMaxGitListingBytes));
}

}  // namespace ropelens
