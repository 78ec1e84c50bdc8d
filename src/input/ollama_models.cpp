// Ollama's local models, read as Ollama reads them (envconfig/config.go Models, types/model/name.go ParseNameBare,
// manifest/paths.go BlobsPath): <models>/manifests/<host>/<namespace>/<model>/<tag> is a JSON manifest whose
// application/vnd.ollama.image.model layer names the GGUF blob <models>/blobs/sha256-<hex>.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <regex>

#include <fmt/format.h>

#include "model_caches.hpp"
#include "ropelens/input/input.hpp"

namespace ropelens::input_detail {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kModelLayer = "application/vnd.ollama.image.model";

struct OllamaName {
  std::string host = "registry.ollama.ai";
  std::string ns = "library";
  std::string model;
  std::string tag = "latest";
  std::string display() const {
    return fmt::format(
        "ollama:{}:{}",
        ns == "library" && host == "registry.ollama.ai" ? model : fmt::format("{}/{}/{}", host, ns, model), tag);
  }
};

// ParseNameBare: the tag follows the last ':' when it comes after the last '/'; the rest splits from the right into
// model, namespace and host.
std::optional<OllamaName> parse_name(const std::string& text) {
  OllamaName name;
  std::string rest = text;
  const auto colon = rest.rfind(':');
  const auto slash = rest.rfind('/');
  if (colon != std::string::npos && (slash == std::string::npos || colon > slash)) {
    name.tag = rest.substr(colon + 1);
    rest = rest.substr(0, colon);
  }
  std::vector<std::string> parts;
  for (std::size_t start = 0;;) {
    const auto end = rest.find('/', start);
    parts.push_back(rest.substr(start, end - start));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  if (parts.size() > 3) return std::nullopt;
  name.model = parts.back();
  if (parts.size() >= 2) name.ns = parts[parts.size() - 2];
  if (parts.size() == 3) name.host = parts.front();
  static const std::regex part(R"([A-Za-z0-9_][A-Za-z0-9_.\-]{0,79})");
  static const std::regex host(R"([A-Za-z0-9_][A-Za-z0-9_.:\-]{0,349})");
  if (!std::regex_match(name.model, part) || !std::regex_match(name.tag, part) || !std::regex_match(name.ns, part) ||
      !std::regex_match(name.host, host) || name.ns.find('.') != std::string::npos)
    return std::nullopt;
  return name;
}

// OLLAMA_MODELS (trimmed of spaces and quotes), else ~/.ollama/models; the Linux service keeps its models under the
// ollama user's home (docs/faq.mdx).
std::vector<std::pair<std::string, std::string>> model_folders() {
  std::vector<std::pair<std::string, std::string>> folders;
  if (auto value = environment("OLLAMA_MODELS")) {
    std::string trimmed = *value;
    const auto strip = [](char c) { return std::isspace(static_cast<unsigned char>(c)) || c == '"' || c == '\''; };
    trimmed.erase(trimmed.begin(), std::find_if_not(trimmed.begin(), trimmed.end(), strip));
    trimmed.erase(std::find_if_not(trimmed.rbegin(), trimmed.rend(), strip).base(), trimmed.end());
    if (!trimmed.empty()) folders.emplace_back(trimmed, "OLLAMA_MODELS");
  }
  if (folders.empty()) folders.emplace_back(expand_home("~/.ollama/models"), "the default ~/.ollama/models");
  folders.emplace_back("/usr/share/ollama/.ollama/models", "the Linux service's models");
  return folders;
}

// The last model layer's blob, as GetModel takes it.
std::string model_blob(const Document& manifest, const fs::path& models) {
  const auto layers = manifest.root.find("layers");
  if (layers == manifest.root.end() || !layers->is_array())
    throw InputError(manifest.path, "the manifest has no layers list");
  std::string digest;
  for (const auto& layer : *layers)
    if (layer.is_object() && layer.value("mediaType", "") == kModelLayer && layer.contains("digest") &&
        layer["digest"].is_string())
      digest = layer["digest"].get<std::string>();
  if (digest.empty())
    throw InputError(manifest.path, fmt::format("the manifest has no {} layer: not a local GGUF model", kModelLayer));
  static const std::regex valid(R"(sha256[:\-][0-9a-fA-F]{64})");
  if (!std::regex_match(digest, valid))
    throw InputError(manifest.path, fmt::format("model layer digest '{}' is not sha256:<64 hex digits>", digest));
  digest[6] = '-';
  return (models / "blobs" / digest).string();
}

std::string tags_of(const fs::path& model_folder) {
  auto tags = folder_entries(model_folder.string());
  return tags.empty() ? "none" : fmt::format("{}", fmt::join(tags, ", "));
}

}  // namespace

std::optional<std::string> ollama_spelling(const std::string& text) {
  const auto name = parse_name(text);
  if (!name) return std::nullopt;
  for (const auto& [folder, from] : model_folders()) {
    std::error_code ec;
    if (fs::is_regular_file(fs::path(folder) / "manifests" / name->host / name->ns / name->model / name->tag, ec))
      return name->display();
  }
  return std::nullopt;
}

LocatedModel locate_in_ollama(const std::string& text) {
  const std::string asked = "ollama:" + text;
  const auto name = parse_name(text);
  if (!name) throw InputError(asked, "not an Ollama model name ([host/][namespace/]model[:tag])");
  std::vector<std::string> searched;
  for (const auto& [folder, from] : model_folders()) {
    const fs::path models(folder);
    const fs::path model_folder = models / "manifests" / name->host / name->ns / name->model;
    const fs::path manifest_path = model_folder / name->tag;
    std::error_code ec;
    if (!fs::is_regular_file(manifest_path, ec)) {
      searched.push_back(fmt::format("{} ({}; tags there: {})", manifest_path.string(), from, tags_of(model_folder)));
      continue;
    }
    const Document manifest = read_config(manifest_path.string());
    const std::string blob = model_blob(manifest, models);
    if (!fs::is_regular_file(blob, ec))
      throw InputError(
          asked, fmt::format("the manifest {} names the blob {}, which is missing", manifest_path.string(), blob));
    const std::string digest = fs::path(blob).filename().string().substr(7);
    LocatedModel located;
    located.path = blob;
    located.shown = fmt::format("{}@{}", name->display(), digest.substr(0, 12));
    located.reference = ModelReference{name->display(), name->tag, "sha256:" + digest, shown_path(blob), folder};
    return located;
  }
  throw InputError(asked, fmt::format("no such Ollama model; searched {}", fmt::join(searched, "; ")));
}

}  // namespace ropelens::input_detail
