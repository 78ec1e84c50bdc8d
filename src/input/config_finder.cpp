// Finds the model files (config.json, *.gguf) a check path stands for. A scan of thousands of model folders spends its
// first moments here, before any worker starts, so the walk uses readdir's d_type instead of a stat per entry.
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <climits>
#include <cstring>
#include <exception>
#include <filesystem>
#include <iterator>
#include <string_view>
#include <system_error>
#include <thread>

#include <fmt/format.h>

#include "ropelens/input/cores.hpp"
#include "ropelens/input/git.hpp"
#include "ropelens/input/input.hpp"

namespace ropelens {
namespace fs = std::filesystem;

namespace {

constexpr std::string_view kConfigName = "config.json";
constexpr std::string_view kWeightsIndexName = "model.safetensors.index.json";
constexpr std::string_view kSingleWeightsName = "model.safetensors";
constexpr std::string_view kGgufSuffix = ".gguf";

bool is_model_file_name(std::string_view name) {
  return name == kConfigName ||
         (name.size() > kGgufSuffix.size() && name.substr(name.size() - kGgufSuffix.size()) == kGgufSuffix);
}

class OpenDirectory {
 public:
  explicit OpenDirectory(const std::string& path) : dir_(::opendir(path.c_str())) {}
  OpenDirectory(const OpenDirectory&) = delete;
  OpenDirectory& operator=(const OpenDirectory&) = delete;
  ~OpenDirectory() {
    if (dir_ != nullptr) ::closedir(dir_);
  }
  bool is_open() const { return dir_ != nullptr; }
  const dirent* next() { return dir_ == nullptr ? nullptr : ::readdir(dir_); }

 private:
  DIR* dir_;
};

// What goes before a path below `root`: nothing for the working directory itself.
std::string prefix_of(const std::string& root) {
  if (root == ".") return "";
  return root.back() == '/' ? root : root + "/";
}

bool is_regular_file(const std::string& path) {
  struct stat info {};
  return ::stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode);
}

bool is_directory(const std::string& path) {
  struct stat info {};
  return ::stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode);
}

// The entry's type without following a symlink; file systems that do not fill d_type cost one lstat.
unsigned char type_of(const dirent& entry, const std::string& path) {
  if (entry.d_type != DT_UNKNOWN) return entry.d_type;
  struct stat info {};
  if (::lstat(path.c_str(), &info) != 0) return DT_UNKNOWN;
  if (S_ISDIR(info.st_mode)) return DT_DIR;
  if (S_ISLNK(info.st_mode)) return DT_LNK;
  return S_ISREG(info.st_mode) ? DT_REG : DT_UNKNOWN;
}

// `[…]` at the start of `glob`: whether `c` is in the class, and how long the class is (0: not a class).
std::size_t match_class(std::string_view glob, char c, bool& matched) {
  std::size_t i = 1;
  const bool negated = i < glob.size() && (glob[i] == '!' || glob[i] == '^');
  if (negated) ++i;
  bool in = false;
  for (bool first = true; i < glob.size() && (first || glob[i] != ']'); first = false, ++i) {
    if (i + 2 < glob.size() && glob[i + 1] == '-' && glob[i + 2] != ']') {
      in = in || (glob[i] <= c && c <= glob[i + 2]);
      i += 2;
    } else {
      in = in || glob[i] == c;
    }
  }
  if (i >= glob.size()) return 0;  // no closing bracket: a literal '['
  matched = in != negated && c != '/';
  return i + 1;
}

// Which paths a scan leaves out, for one scanned folder.
class ExcludeMatcher {
 public:
  ExcludeMatcher(const ScanFilter& filter, fs::path root) : root_(std::move(root)) {
    for (const auto& pattern : filter.excludes) {
      std::string glob = pattern.glob;
      while (glob.size() > 1 && glob.back() == '/') glob.pop_back();
      if (glob.find('/') == std::string::npos) {
        name_globs_.push_back(glob);
      } else {
        path_globs_.push_back({glob[0] == '/' ? glob.substr(1) : glob, pattern.base});
      }
    }
  }

  // `relative` is the entry's path below the scanned folder, `name` its last component.
  bool excluded(std::string_view name, const std::string& relative) const {
    for (const auto& glob : name_globs_)
      if (glob_match(glob, name)) return true;
    if (path_globs_.empty()) return false;
    const fs::path absolute = (root_ / relative).lexically_normal();
    for (const auto& pattern : path_globs_) {
      const std::string below_base = absolute.lexically_relative(pattern.base).generic_string();
      if (below_base.empty() || below_base.rfind("..", 0) == 0) continue;
      if (glob_match(pattern.glob, below_base)) return true;
    }
    return false;
  }

  // The same for a path and every folder above it, up to the scanned folder.
  bool excluded_or_inside_excluded(const std::string& relative) const {
    for (std::size_t end = relative.find('/');; end = relative.find('/', end + 1)) {
      const std::string prefix = relative.substr(0, end);
      const std::size_t slash = prefix.rfind('/');
      if (excluded(std::string_view(prefix).substr(slash == std::string::npos ? 0 : slash + 1), prefix)) return true;
      if (end == std::string::npos) return false;
    }
  }

 private:
  fs::path root_;
  std::vector<std::string> name_globs_;
  std::vector<ExcludePattern> path_globs_;
};

// Lists folders below a scanned root: the model files each holds, what it passes over and why, and its sub-folders.
// Each walk gathers into its own Result, so threads can walk separate folders at once.
class FolderWalk {
 public:
  struct Result {
    std::vector<std::string> found;
    std::vector<SkippedPath> skipped;
    std::vector<std::string> folders_with_weights_index;  // as FoundFiles has them
  };

  FolderWalk(const std::string& root, const ExcludeMatcher& matcher, bool record_skipped)
      : root_(root), root_prefix_(prefix_of(root)), matcher_(matcher), record_skipped_(record_skipped) {}

  // One folder, relative to the root ("" for the root itself); its sub-folders are appended to `folders`.
  void list(const std::string& relative_dir, std::vector<std::string>& folders, Result& out) const {
    auto skip = [&](std::string path, SkippedPath::Why why, std::string detail = {}) {
      if (record_skipped_) out.skipped.push_back({std::move(path), why, std::move(detail)});
    };
    const std::string directory = relative_dir.empty() ? root_ : root_prefix_ + relative_dir;
    const std::string prefix = relative_dir.empty() ? "" : relative_dir + "/";
    OpenDirectory listing(directory);
    if (!listing.is_open())
      skip(directory, SkippedPath::Why::unreadable_directory, std::generic_category().message(errno));
    while (const dirent* entry = listing.next()) {
      const std::string_view name = entry->d_name;
      if (name == "." || name == "..") continue;
      if (name == kWeightsIndexName || name == kSingleWeightsName)
        out.folders_with_weights_index.push_back(root_prefix_ + prefix);
      std::string relative = prefix + entry->d_name;
      std::string path = root_prefix_ + relative;
      const unsigned char type = type_of(*entry, path);
      if (type == DT_DIR) {
        if (!matcher_.excluded(name, relative)) folders.push_back(std::move(relative));
        else skip(std::move(path), SkippedPath::Why::excluded);
      } else if (!is_model_file_name(name)) {
        if (!record_skipped_) continue;  // the common case: no -v log, no stat
        const bool directory_link = type == DT_LNK && is_directory(path);
        skip(std::move(path), directory_link ? SkippedPath::Why::directory_link : SkippedPath::Why::other_name);
      } else if (matcher_.excluded(name, relative)) {
        skip(std::move(path), SkippedPath::Why::excluded);
      } else if (type == DT_REG || (type == DT_LNK && is_regular_file(path))) {
        out.found.push_back(std::move(path));
      } else {
        skip(std::move(path), SkippedPath::Why::not_a_regular_file);
      }
    }
  }

  // The folder and everything below it.
  void walk_below(std::string relative_dir, Result& out) const {
    std::vector<std::string> pending{std::move(relative_dir)};
    while (!pending.empty()) {
      const std::string folder = std::move(pending.back());
      pending.pop_back();
      list(folder, pending, out);
    }
  }

 private:
  const std::string& root_;
  const std::string root_prefix_;
  const ExcludeMatcher& matcher_;
  const bool record_skipped_;
};

// A model cache or a test corpus holds thousands of folders side by side, and listing them is mostly system calls:
// the folders below the root are shared among threads (the checkers have not started yet, so the cores are idle).
std::size_t walk_thread_count(std::size_t folders, unsigned threads) {
  constexpr std::size_t kFoldersPerThread = 256;
  if (folders < 2 * kFoldersPerThread) return 1;
  const std::size_t most = threads > 0 ? threads : available_cores();
  return std::clamp<std::size_t>(folders / kFoldersPerThread, 1, most);
}

// Walks below each folder, on several threads when there are many; the parts come back in thread order.
std::vector<FolderWalk::Result> walk_folders(const FolderWalk& walk, const std::vector<std::string>& folders,
                                             unsigned most_threads) {
  std::vector<FolderWalk::Result> parts(walk_thread_count(folders.size(), most_threads));
  std::atomic<std::size_t> next{0};
  std::vector<std::exception_ptr> failures(parts.size());
  auto work = [&](std::size_t part) {
    try {
      for (std::size_t i = next++; i < folders.size(); i = next++) walk.walk_below(folders[i], parts[part]);
    } catch (...) {
      failures[part] = std::current_exception();
    }
  };
  std::vector<std::thread> threads;
  for (std::size_t part = 1; part < parts.size(); ++part) threads.emplace_back(work, part);
  work(0);
  for (auto& thread : threads) thread.join();
  for (const auto& failure : failures)
    if (failure) std::rethrow_exception(failure);
  return parts;
}

// Every config.json and *.gguf below `root` (a symlink to a file counts) that the matcher leaves in. Directory
// symlinks are not followed, so a link cycle cannot loop, and directories that cannot be read are skipped;
// with `filter.record_skipped`, the result's skipped list hears of both, and of what the matcher left out, in path
// order. The folders holding a safetensors index come along, so that loading a config need not look for one.
FolderWalk::Result walk_model_files(const std::string& root, const ExcludeMatcher& matcher, const ScanFilter& filter) {
  const FolderWalk walk(root, matcher, filter.record_skipped);
  FolderWalk::Result all;
  std::vector<std::string> folders;
  walk.list("", folders, all);
  for (auto& part : walk_folders(walk, folders, filter.threads)) {
    std::move(part.found.begin(), part.found.end(), std::back_inserter(all.found));
    std::move(part.skipped.begin(), part.skipped.end(), std::back_inserter(all.skipped));
    std::move(part.folders_with_weights_index.begin(), part.folders_with_weights_index.end(),
              std::back_inserter(all.folders_with_weights_index));
  }
  std::sort(all.skipped.begin(), all.skipped.end(),
            [](const SkippedPath& a, const SkippedPath& b) { return a.path < b.path; });
  std::sort(all.folders_with_weights_index.begin(), all.folders_with_weights_index.end());
  return all;
}

// The same list from git, which honours .gitignore; none when git cannot list the folder.
std::optional<std::vector<std::string>> git_model_files(const std::string& root, const ExcludeMatcher& matcher,
                                                        std::vector<std::string>& notes) {
  std::vector<std::string> listed;
  try {
    listed = git_listed_files(root, {"**/config.json", "**/*.gguf"});
  } catch (const InputError& e) {
    notes.push_back(fmt::format("{}: could not list files with git ({}); scanned without .gitignore", root, e.what()));
    return std::nullopt;
  }
  std::vector<std::string> found;
  const std::string root_prefix = prefix_of(root);
  for (const auto& relative : listed) {
    const std::string path = root_prefix + relative;
    if (!matcher.excluded_or_inside_excluded(relative) && is_regular_file(path)) found.push_back(path);
  }
  return found;
}

}  // namespace

bool glob_match(std::string_view glob, std::string_view path) {
  std::size_t g = 0, p = 0;
  // Backtracking points for the last `*` (within a name) and the last `**` (across folders).
  std::size_t star_g = std::string_view::npos, star_p = 0;
  std::size_t globstar_g = std::string_view::npos, globstar_p = 0;
  while (p < path.size()) {
    if (g + 1 < glob.size() && glob[g] == '*' && glob[g + 1] == '*') {
      g += 2;
      if (g < glob.size() && glob[g] == '/') ++g;  // "**/" also matches no folder at all
      globstar_g = g;
      globstar_p = p;
      star_g = std::string_view::npos;
      continue;
    }
    if (g < glob.size() && glob[g] == '*') {
      star_g = ++g;
      star_p = p;
      continue;
    }
    if (g < glob.size()) {
      bool matched = false;
      std::size_t advance = glob[g] == '[' ? match_class(glob.substr(g), path[p], matched) : 0;
      if (advance == 0) {
        advance = 1;
        matched = glob[g] == path[p] || (glob[g] == '?' && path[p] != '/');
      }
      if (matched) {
        g += advance;
        ++p;
        continue;
      }
    }
    if (star_g != std::string_view::npos && path[star_p] != '/') {
      g = star_g;
      p = ++star_p;
      continue;
    }
    if (globstar_g != std::string_view::npos) {
      g = globstar_g;
      p = ++globstar_p;
      star_g = std::string_view::npos;
      continue;
    }
    return false;
  }
  while (g < glob.size() && glob[g] == '*') ++g;
  return g == glob.size();
}

const std::vector<std::string>& default_exclude_globs() {
  static const std::vector<std::string> globs = {
      ".*",    "node_modules", "venv", "__pycache__", "__pypackages__", "site-packages",
      "build", "_build",       "dist", "buck-out"};
  return globs;
}

std::vector<ExcludePattern> exclude_patterns(const std::vector<std::string>& globs, const std::string& base) {
  std::vector<ExcludePattern> patterns;
  for (const auto& glob : globs) patterns.push_back({glob, base});
  return patterns;
}

namespace {

// True when lexically_normal() would give the path back unchanged: no empty, "." or ".." component.
bool plainly_normal(std::string_view path) {
  for (std::string_view part : {"//", "/./", "/../"})
    if (path.find(part) != std::string_view::npos) return false;
  return !path.ends_with("/.") && !path.ends_with("/..");
}

// True when an absolute path is neither the working directory nor under it, so it is shown as given.
bool outside_working_directory(std::string_view path) {
  char buffer[PATH_MAX];
  if (::getcwd(buffer, sizeof buffer) == nullptr) return false;
  const std::string_view cwd(buffer);
  if (cwd == "/") return false;
  return !path.starts_with(cwd) || (path.size() > cwd.size() && path[cwd.size()] != '/');
}

}  // namespace

std::string shown_path(const std::string& path) {
  if (path == "-" || path.empty()) return path;
  // Every file of a scan of an absolute folder comes here: answered without building a path.
  if (path.front() == '/' && plainly_normal(path) && outside_working_directory(path)) return path;
  const fs::path given(path);
  if (given.is_relative()) {
    const std::string normal = given.lexically_normal().generic_string();
    if (normal == path && normal.rfind("..", 0) != 0) return path;  // already as short as it gets
  }
  std::error_code ec;
  const fs::path cwd = fs::current_path(ec);
  if (ec) return path;
  const fs::path absolute = (given.is_absolute() ? given : cwd / given).lexically_normal();
  const std::string relative = absolute.lexically_relative(cwd).generic_string();
  if (relative.empty() || relative.rfind("..", 0) == 0) return path;
  return relative;
}

FoundFiles find_model_files(const std::string& path, const ScanFilter& filter) {
  FoundFiles out;
  std::error_code ec;
  if (path == "-" || !fs::is_directory(path, ec)) {
    out.files = {shown_path(path)};
    out.named = true;
    return out;
  }
  if (fs::exists(fs::path(path) / kConfigName, ec)) {
    // A model folder: its config.json, and the GGUF files beside it, each checked against that config.
    out.files = {shown_path((fs::path(path) / kConfigName).string())};
    std::vector<std::string> ggufs;
    for (const auto& entry : fs::directory_iterator(path, ec))
      if (entry.path().extension() == kGgufSuffix && entry.is_regular_file(ec)) ggufs.push_back(entry.path().string());
    std::sort(ggufs.begin(), ggufs.end());
    for (const auto& gguf : ggufs) out.files.push_back(shown_path(gguf));
    out.named = true;
    return out;
  }
  const std::string root = shown_path(path);
  if (fs::directory_iterator(path, ec); ec) throw InputError(root, "directory cannot be read: " + ec.message());
  const ExcludeMatcher matcher(filter, fs::absolute(root, ec).lexically_normal());
  std::optional<std::vector<std::string>> found;
  if (filter.respect_gitignore && enclosing_work_tree(root)) found = git_model_files(root, matcher, out.notes);
  if (!found) {
    FolderWalk::Result walked = walk_model_files(root, matcher, filter);
    found = std::move(walked.found);
    out.skipped = std::move(walked.skipped);
    out.folders_with_weights_index = std::move(walked.folders_with_weights_index);
  }
  out.files = std::move(*found);
  std::sort(out.files.begin(), out.files.end());
  if (out.files.empty())
    throw InputError(root,
                     "directory has no config.json or .gguf file (searched recursively, leaving out hidden, "
                     "node_modules, virtual-environment and build folders, .gitignore'd files and --exclude)");
  return out;
}

bool listed_without_weights_index(const FoundFiles& found, const std::string& file) {
  if (!found.folders_with_weights_index) return false;
  const std::size_t slash = file.rfind('/');
  const std::string folder = slash == std::string::npos ? std::string() : file.substr(0, slash + 1);
  return !std::binary_search(found.folders_with_weights_index->begin(), found.folders_with_weights_index->end(),
                             folder);
}

std::string describe(const SkippedPath& skipped) {
  switch (skipped.why) {
    case SkippedPath::Why::unreadable_directory:
      return skipped.path + ": directory cannot be read (" + skipped.detail + ")";
    case SkippedPath::Why::directory_link: return skipped.path + ": link to a directory, not followed";
    case SkippedPath::Why::not_a_regular_file: return skipped.path + ": not a regular file";
    case SkippedPath::Why::other_name: return skipped.path + ": not named config.json or *.gguf";
    case SkippedPath::Why::excluded: return skipped.path + ": excluded (default excludes or --exclude)";
  }
  return skipped.path;
}

std::vector<std::string> expand_paths(const std::string& path, std::vector<SkippedPath>* skipped) {
  ScanFilter filter;
  filter.record_skipped = skipped != nullptr;
  FoundFiles found = find_model_files(path, filter);
  if (skipped != nullptr) skipped->insert(skipped->end(), found.skipped.begin(), found.skipped.end());
  return std::move(found.files);
}

bool excluded_path(const std::string& path, const ScanFilter& filter) {
  if (path == "-") return false;
  std::error_code ec;
  const ExcludeMatcher matcher(filter, fs::current_path(ec));
  const std::string relative = fs::path(shown_path(path)).lexically_normal().relative_path().generic_string();
  return !relative.empty() && matcher.excluded_or_inside_excluded(relative);
}

}  // namespace ropelens
