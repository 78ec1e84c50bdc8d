// The Hugging Face hub cache, read as huggingface_hub reads it offline (constants.py, file_download.py
// try_to_load_from_cache and repo_folder_name): <cache>/models--Org--Name/refs/<revision> holds a commit, and
// snapshots/<commit>/ holds the files, usually symlinks into blobs/.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <regex>

#include <fmt/format.h>

#include "model_caches.hpp"
#include "ropelens/input/input.hpp"
#include "ropelens/model/text.hpp"

namespace ropelens::input_detail {
namespace {

namespace fs = std::filesystem;

struct HubCache {
  std::string folder;
  std::string from;  // the variable (or default) that named it
};

// HF_HUB_CACHE, else the legacy HUGGINGFACE_HUB_CACHE, else HF_HOME/hub, else XDG_CACHE_HOME/huggingface/hub, else
// ~/.cache/huggingface/hub.
HubCache hub_cache() {
  if (auto value = environment("HF_HUB_CACHE")) return {expand_home(*value), "HF_HUB_CACHE"};
  if (auto value = environment("HUGGINGFACE_HUB_CACHE")) return {expand_home(*value), "HUGGINGFACE_HUB_CACHE"};
  if (auto home = environment("HF_HOME")) return {(fs::path(expand_home(*home)) / "hub").string(), "HF_HOME/hub"};
  if (auto xdg = environment("XDG_CACHE_HOME"))
    return {(fs::path(*xdg) / "huggingface" / "hub").string(), "XDG_CACHE_HOME/huggingface/hub"};
  return {expand_home("~/.cache/huggingface/hub"), "the default ~/.cache/huggingface/hub"};
}

// "Org/Name" -> "models--Org--Name" (repo_folder_name).
std::string repo_folder(const std::string& repo_id) {
  std::string folder = "models--";
  for (char c : repo_id) folder += c == '/' ? std::string("--") : std::string(1, c);
  return folder;
}

std::string trimmed(std::string text) {
  const auto not_space = [](unsigned char c) { return !std::isspace(c); };
  text.erase(text.begin(), std::find_if(text.begin(), text.end(), not_space));
  text.erase(std::find_if(text.rbegin(), text.rend(), not_space).base(), text.end());
  return text;
}

bool is_file(const fs::path& path) {
  std::error_code ec;
  return fs::is_regular_file(path, ec);  // follows the snapshot's symlink into blobs/
}

// A revision names a file under refs/ or a folder under snapshots/: it must stay inside them.
bool is_safe_revision(const std::string& revision) {
  if (revision.empty() || revision.front() == '/') return false;
  for (const auto& part : fs::path(revision))
    if (part == ".." || part == ".") return false;
  return true;
}

// Every ref (refs/main, refs/refs/pr/1 -> "refs/pr/1") and the commit it names.
std::vector<std::pair<std::string, std::string>> refs_of(const fs::path& repo) {
  std::vector<std::pair<std::string, std::string>> refs;
  std::error_code ec;
  const fs::path root = repo / "refs";
  for (fs::recursive_directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec)) {
    if (!it->is_regular_file(ec)) continue;
    std::ifstream in(it->path());
    std::string commit;
    std::getline(in, commit);
    refs.emplace_back(fs::relative(it->path(), root, ec).generic_string(), trimmed(commit));
  }
  std::sort(refs.begin(), refs.end());
  return refs;
}

std::string short_commit(const std::string& commit) { return commit.substr(0, 12); }

std::string cached_revisions(const fs::path& repo) {
  std::vector<std::string> parts;
  for (const auto& [ref, commit] : refs_of(repo)) parts.push_back(fmt::format("{} -> {}", ref, short_commit(commit)));
  std::vector<std::string> snapshots;
  for (const auto& name : folder_entries((repo / "snapshots").string())) snapshots.push_back(short_commit(name));
  return fmt::format("refs: {}; snapshots: {}", parts.empty() ? "none" : fmt::format("{}", fmt::join(parts, ", ")),
                     snapshots.empty() ? "none" : fmt::format("{}", fmt::join(snapshots, ", ")));
}

// config.json, else the snapshot's only .gguf file.
fs::path model_file_in(const fs::path& snapshot, const std::string& shown) {
  if (is_file(snapshot / "config.json")) return snapshot / "config.json";
  std::vector<std::string> gguf;
  for (const auto& name : folder_entries(snapshot.string()))
    if (name.size() > 5 && name.substr(name.size() - 5) == ".gguf" && is_file(snapshot / name)) gguf.push_back(name);
  if (gguf.size() == 1) return snapshot / gguf.front();
  if (gguf.empty())
    throw InputError(shown,
                     fmt::format("the cached snapshot {} has no config.json and no .gguf file", snapshot.string()));
  throw InputError(shown,
                   fmt::format("the cached snapshot {} has no config.json and {} .gguf files ({}); name one by its "
                               "path",
                               snapshot.string(), gguf.size(), fmt::join(gguf, ", ")));
}

// The snapshot a short commit (7 to 39 hex digits, as `suggest` and git print them) abbreviates: the one snapshot
// folder it begins. None: the revision as given; several: an error listing them.
std::string expand_short_commit(const fs::path& repo, const std::string& revision, const std::string& asked) {
  static const std::regex short_hex("[0-9a-fA-F]{7,39}");
  if (!std::regex_match(revision, short_hex)) return revision;
  std::string prefix = revision;
  for (char& c : prefix) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::vector<std::string> matches;
  for (const auto& name : folder_entries((repo / "snapshots").string()))
    if (name.rfind(prefix, 0) == 0) matches.push_back(name);
  if (matches.size() > 1)
    throw InputError(asked, fmt::format("revision '{}' is ambiguous: {} cached snapshots begin with it ({})", revision,
                                        matches.size(), fmt::join(matches, ", ")));
  return matches.empty() ? revision : matches.front();
}

// Every model id in the cache ("models--Org--Name" folders), for a did-you-mean.
std::vector<std::string> cached_ids(const std::string& cache) {
  constexpr std::string_view kPrefix = "models--";
  std::vector<std::string> ids;
  for (const auto& name : folder_entries(cache)) {
    if (name.rfind(kPrefix, 0) != 0) continue;
    std::string id = name.substr(kPrefix.size());
    if (const auto dashes = id.find("--"); dashes != std::string::npos) id.replace(dashes, 2, "/");
    ids.push_back(id);
  }
  return ids;
}

}  // namespace

bool hub_has_model(const std::string& repo_id) {
  std::error_code ec;
  return fs::is_directory(fs::path(hub_cache().folder) / repo_folder(repo_id) / "snapshots", ec);
}

bool looks_like_repo_id(const std::string& text) {
  static const std::regex id(R"([A-Za-z0-9_][A-Za-z0-9_.\-]{0,95}(/[A-Za-z0-9_][A-Za-z0-9_.\-]{0,95})?)");
  return std::regex_match(text, id) && text.find("--") == std::string::npos && text.find("..") == std::string::npos;
}

LocatedModel locate_in_hub(const std::string& repo_id, const std::string& revision) {
  const HubCache cache = hub_cache();
  const std::string asked = repo_id + (revision == "main" ? "" : "@" + revision);
  const fs::path repo = fs::path(cache.folder) / repo_folder(repo_id);
  std::error_code ec;
  if (!fs::is_directory(repo, ec))
    throw InputError(asked,
                     fmt::format("no such file, and no model '{}' in the Hugging Face cache{}: searched {} (from "
                                 "{})",
                                 repo_id, did_you_mean(repo_id, cached_ids(cache.folder)), repo.string(), cache.from));
  if (!is_safe_revision(revision))
    throw InputError(asked, fmt::format("revision '{}' is not a branch, tag or commit name", revision));
  std::string commit = revision;
  if (is_file(repo / "refs" / revision)) {
    std::ifstream in(repo / "refs" / revision);
    std::getline(in, commit);
    commit = trimmed(commit);
  } else {
    commit = expand_short_commit(repo, revision, asked);
  }
  const fs::path snapshot = repo / "snapshots" / commit;
  if (!is_safe_revision(commit) || !fs::is_directory(snapshot, ec))
    throw InputError(asked, fmt::format("revision '{}' is not in the Hugging Face cache {} ({})", revision,
                                        repo.string(), cached_revisions(repo)));
  if (is_file(repo / ".no_exist" / commit / "config.json") && !is_file(snapshot / "config.json"))
    throw InputError(asked, fmt::format("the Hugging Face cache records that {} has no config.json at {}", repo_id,
                                        short_commit(commit)));
  LocatedModel located;
  located.path = model_file_in(snapshot, asked).string();
  located.shown = fmt::format("{}@{}", repo_id, short_commit(commit));
  located.reference = ModelReference{repo_id, revision, commit, shown_path(located.path), cache.folder};
  return located;
}

}  // namespace ropelens::input_detail
