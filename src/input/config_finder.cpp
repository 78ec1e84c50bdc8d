// Finds the model files (config.json, *.gguf) a check path stands for. A scan of thousands of model folders spends its
// first moments here, before any worker starts, so the walk uses readdir's d_type instead of a stat per entry.
#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string_view>
#include <system_error>

#include "ropelens/input.hpp"

namespace ropelens {
namespace {

constexpr std::string_view kConfigName = "config.json";
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

// Every config.json and *.gguf below `root` (a symlink to a file counts). Directory symlinks are not followed,
// so a link cycle cannot loop, and directories that cannot be read are skipped; `skipped` (optional) hears of both.
std::vector<std::string> find_model_files(const std::string& root, std::vector<SkippedPath>* skipped) {
  auto skip = [skipped](std::string path, SkippedPath::Why why, std::string detail = {}) {
    if (skipped != nullptr) skipped->push_back({std::move(path), why, std::move(detail)});
  };
  std::vector<std::string> found;
  std::vector<std::string> pending{root};
  while (!pending.empty()) {
    const std::string directory = std::move(pending.back());
    pending.pop_back();
    const std::string prefix = directory.back() == '/' ? directory : directory + "/";
    OpenDirectory listing(directory);
    if (!listing.is_open()) skip(directory, SkippedPath::Why::unreadable_directory, std::strerror(errno));
    while (const dirent* entry = listing.next()) {
      const std::string_view name = entry->d_name;
      if (name == "." || name == "..") continue;
      std::string path = prefix + entry->d_name;
      const unsigned char type = type_of(*entry, path);
      if (type == DT_DIR) {
        pending.push_back(std::move(path));
      } else if (!is_model_file_name(name)) {
        if (skipped == nullptr) continue;  // the common case: no -v log, no stat
        const bool directory_link = type == DT_LNK && is_directory(path);
        skip(std::move(path), directory_link ? SkippedPath::Why::directory_link : SkippedPath::Why::other_name);
      } else if (type == DT_REG || (type == DT_LNK && is_regular_file(path))) {
        found.push_back(std::move(path));
      } else {
        skip(std::move(path), SkippedPath::Why::not_a_regular_file);
      }
    }
  }
  std::sort(found.begin(), found.end());
  return found;
}

}  // namespace

std::string describe(const SkippedPath& skipped) {
  switch (skipped.why) {
    case SkippedPath::Why::unreadable_directory: return skipped.path + ": directory cannot be read (" + skipped.detail + ")";
    case SkippedPath::Why::directory_link: return skipped.path + ": link to a directory, not followed";
    case SkippedPath::Why::not_a_regular_file: return skipped.path + ": not a regular file";
    case SkippedPath::Why::other_name: return skipped.path + ": not named config.json or *.gguf";
  }
  return skipped.path;
}

std::vector<std::string> expand_paths(const std::string& path, std::vector<SkippedPath>* skipped) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (path == "-" || !fs::is_directory(path, ec)) return {path};
  if (fs::exists(fs::path(path) / kConfigName, ec)) return {(fs::path(path) / kConfigName).string()};
  std::vector<std::string> found = find_model_files(path, skipped);
  if (found.empty()) throw InputError(path, "directory has no config.json or .gguf file (searched recursively)");
  return found;
}

}  // namespace ropelens
