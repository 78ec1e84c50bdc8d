// A model named by path, Hugging Face id or Ollama name, and the safetensors index beside a config.
#include "ropelens/input/model_locator.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include <fmt/format.h>

#include "model_caches.hpp"
#include "ropelens/input/input.hpp"
#include "ropelens/model/text.hpp"

namespace ropelens {
namespace input_detail {

std::optional<std::string> environment(const char* name) {
  const char* value = std::getenv(name);
  return value ? std::optional<std::string>(value) : std::nullopt;
}

std::string expand_home(const std::string& path) {
  if (path.empty() || path.front() != '~' || (path.size() > 1 && path[1] != '/')) return path;
  const auto home = environment("HOME");
  return home ? *home + path.substr(1) : path;
}

std::vector<std::string> folder_entries(const std::string& folder) {
  std::vector<std::string> names;
  std::error_code ec;
  for (std::filesystem::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec))
    names.push_back(it->path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

// A name that can only be a path: a file name ropelens reads (config.json, x.gguf), or one that starts where paths
// start (/, ./, ../, ~). Hugging Face ids have none of these.
bool names_a_file(const std::string& spec) {
  const auto ends_with = [&](std::string_view suffix) {
    return spec.size() >= suffix.size() &&
           std::equal(suffix.rbegin(), suffix.rend(), spec.rbegin(),
                      [](char a, char b) { return a == std::tolower(static_cast<unsigned char>(b)); });
  };
  return ends_with(".json") || ends_with(".gguf") || ends_with(".safetensors") || spec.starts_with("/") ||
         spec.starts_with("./") || spec.starts_with("../") || spec.starts_with("~");
}

}  // namespace input_detail

LocatedModel locate_model(const std::string& spec, const std::optional<std::string>& revision) {
  std::error_code ec;
  // A dangling or looping symlink is still a path the user named: reading it says what is wrong with it.
  const bool exists = spec == "-" || std::filesystem::exists(spec, ec) || std::filesystem::is_symlink(spec, ec);
  if (exists) {
    if (revision)
      throw InputError(spec, fmt::format("--revision {} applies to a model id, and this is a path", *revision));
    return {spec, spec, std::nullopt};
  }
  if (input_detail::names_a_file(spec)) return {spec, spec, std::nullopt};  // reading it says it is not there
  constexpr std::string_view kOllama = "ollama:";
  if (spec.rfind(kOllama, 0) == 0) {
    if (revision) throw InputError(spec, "--revision applies to Hugging Face ids; an Ollama name takes :TAG");
    return input_detail::locate_in_ollama(spec.substr(kOllama.size()));
  }
  const auto at = spec.find('@');
  const std::string id = spec.substr(0, at);
  const bool repo_id = input_detail::looks_like_repo_id(id);
  if (!repo_id || !input_detail::hub_has_model(id))
    if (auto spelling = input_detail::ollama_spelling(spec))
      throw InputError(
          spec, fmt::format("no such file or Hugging Face model; Ollama has one (did you mean '{}'?)", *spelling));
  if (!repo_id) return {spec, spec, std::nullopt};
  if (at != std::string::npos && revision)
    throw InputError(spec, fmt::format("two revisions: @{} and --revision {}", spec.substr(at + 1), *revision));
  const std::string rev = at != std::string::npos ? spec.substr(at + 1) : revision.value_or("main");
  return input_detail::locate_in_hub(id, rev);
}

std::optional<SafetensorsIndex> read_safetensors_index(const std::string& folder) {
  const auto path = (std::filesystem::path(folder) / "model.safetensors.index.json").string();
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return std::nullopt;
  SafetensorsIndex index{path, std::nullopt, {}};
  try {
    const Document document = read_config(path);
    const auto metadata = document.root.find("metadata");
    const nlohmann::json* total =
        metadata != document.root.end() && metadata->is_object() && metadata->contains("total_size")
            ? &(*metadata)["total_size"]
            : nullptr;
    if (total && total->is_number_unsigned()) index.total_size = total->get<std::uint64_t>();
    else if (total && total->is_number_integer() && total->get<std::int64_t>() >= 0)
      index.total_size = static_cast<std::uint64_t>(total->get<std::int64_t>());
    else index.problem = fmt::format("{} has no whole metadata.total_size; the weights' size is unknown", path);
  } catch (const InputError& e) {
    index.problem = fmt::format("{}; the weights' size is unknown", e.what());
  }
  return index;
}

std::string served_model_word(const std::string& path, const std::optional<ModelReference>& reference) {
  namespace fs = std::filesystem;
  if (reference) return reference->id.starts_with("ollama:") ? "" : shell_word(reference->id);
  if (path.empty() || path == "-" || path == "<stdin>") return "";
  const fs::path file(path);
  std::error_code error;
  if (fs::is_directory(file, error)) return shell_word(path);
  if (file.extension() == ".gguf") return shell_word(path);
  if (file.filename() == "config.json") return shell_word(file.has_parent_path() ? file.parent_path().string() : ".");
  return "";
}

}  // namespace ropelens
