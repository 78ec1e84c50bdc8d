// Git LFS pointers and the local LFS store (git-lfs docs/spec.md): a file tracked by LFS is committed as a short
// pointer naming its object by sha256 and size, and the objects fetched into a clone sit under
// <git common dir>/lfs/objects/aa/bb/<oid> (or under the folder lfs.storage names).
#include <algorithm>
#include <filesystem>
#include <string_view>

#include <fmt/format.h>

#include "ropelens/input/git.hpp"
#include "ropelens/input/input.hpp"
#include "ropelens/model/text.hpp"

namespace ropelens {
namespace fs = std::filesystem;

namespace {

constexpr std::string_view kLfsVersionLine = "version https://git-lfs.github.com/spec/v1";

std::string trimmed_line(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  return text;
}

// The folder a git command run in `directory` prints, made absolute (git prints it relative to `directory`).
fs::path git_path(const std::string& directory, const std::vector<std::string>& args, const std::string& shown) {
  const fs::path printed = trimmed_line(run_git(directory, args, shown, 1u << 16));
  return printed.is_absolute() ? printed : (fs::path(directory) / printed).lexically_normal();
}

// The objects folder of the LFS store: lfs.storage (relative to the git common dir) when set, else lfs/.
fs::path lfs_objects_folder(const std::string& directory, const std::string& shown) {
  const fs::path common = git_path(directory, {"rev-parse", "--git-common-dir"}, shown);
  std::string storage;
  try {
    storage = trimmed_line(run_git(directory, {"config", "--get", "lfs.storage"}, shown, 1u << 16));
  } catch (const InputError&) {  // unset: git config exits 1
  }
  if (storage.empty()) return common / "lfs" / "objects";
  const fs::path base = storage;
  return (base.is_absolute() ? base : common / base) / "objects";
}

// The remote a fetch names: origin when the clone has it, else its first remote; none without remotes.
std::optional<std::string> fetch_remote(const std::string& directory, const std::string& shown) {
  std::string listing;
  try {
    listing = run_git(directory, {"remote"}, shown, 1u << 16);
  } catch (const InputError&) {
    return std::nullopt;
  }
  std::vector<std::string> remotes;
  for (std::size_t start = 0; start < listing.size();) {
    const std::size_t end = std::min(listing.find('\n', start), listing.size());
    if (end > start) remotes.push_back(listing.substr(start, end - start));
    start = end + 1;
  }
  if (std::find(remotes.begin(), remotes.end(), "origin") != remotes.end()) return "origin";
  if (remotes.empty()) return std::nullopt;
  return remotes.front();
}

// "git lfs fetch origin HEAD --include=m/model.gguf" for a revision, "git lfs pull --include=…" for the work tree.
std::string fetch_command(const std::string& directory, const LfsFile& file, const std::string& shown) {
  const std::string include = shell_word("--include=" + file.path_in_repository);
  if (!file.revision) return "git lfs pull " + include;
  const auto remote = fetch_remote(directory, shown);
  if (!remote) return "";
  return fmt::format("git lfs fetch {} {} {}", shell_word(*remote), shell_word(*file.revision), include);
}

std::string object_summary(const LfsPointer& pointer) {
  return fmt::format("sha256 {}…, {} bytes", pointer.oid.substr(0, 12), pointer.size);
}

}  // namespace

std::optional<LfsPointer> parse_lfs_pointer(std::string_view bytes) {
  if (bytes.size() > kMaxLfsPointerBytes || bytes.substr(0, kLfsVersionLine.size()) != kLfsVersionLine)
    return std::nullopt;
  LfsPointer pointer;
  bool sized = false;
  for (std::size_t start = 0; start < bytes.size();) {
    const std::size_t end = std::min(bytes.find('\n', start), bytes.size());
    const std::string_view line = bytes.substr(start, end - start);
    start = end + 1;
    if (line.starts_with("oid sha256:")) {
      const std::string_view hex = line.substr(11);
      if (hex.size() != 64 || hex.find_first_not_of("0123456789abcdef") != std::string_view::npos) return std::nullopt;
      pointer.oid = std::string(hex);
    } else if (line.starts_with("size ")) {
      const std::string_view digits = line.substr(5);
      if (digits.empty() || digits.size() > 19 || digits.find_first_not_of("0123456789") != std::string_view::npos)
        return std::nullopt;
      pointer.size = std::stoull(std::string(digits));
      sized = true;
    }
  }
  if (pointer.oid.empty() || !sized) return std::nullopt;
  return pointer;
}

std::string lfs_object(const std::string& directory, const LfsPointer& pointer, const LfsFile& file) {
  const fs::path object =
      lfs_objects_folder(directory, file.shown) / pointer.oid.substr(0, 2) / pointer.oid.substr(2, 2) / pointer.oid;
  std::error_code ec;
  const bool present = fs::is_regular_file(object, ec);
  const std::uintmax_t size = present ? fs::file_size(object, ec) : 0;
  if (present && !ec && size == pointer.size) return object.string();
  const std::string command = fetch_command(directory, file, file.shown);
  const std::string fetch =
      command.empty() ? std::string("the repository has no remote to fetch it from") : "fetch it with: " + command;
  if (!present)
    throw InputError(file.shown, fmt::format("a Git LFS pointer to an object this clone has not fetched ({}); {}",
                                             object_summary(pointer), fetch));
  throw InputError(file.shown,
                   fmt::format("its Git LFS object {} is {} bytes where the pointer says {} (an interrupted "
                               "download); {}",
                               shown_path(object.string()), size, pointer.size,
                               command.empty() ? fetch : "fetch it again with: " + command));
}

}  // namespace ropelens
