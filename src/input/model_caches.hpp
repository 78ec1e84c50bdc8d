// Internal to the input layer: the two local caches a model can be named in.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ropelens/input/model_locator.hpp"

namespace ropelens::input_detail {

// An environment variable as huggingface_hub and Ollama read it (set but empty counts as set for the hub).
std::optional<std::string> environment(const char* name);
// "~" and "~/…" become the home folder.
std::string expand_home(const std::string& path);
// Every entry of a folder (names only), sorted; empty when it cannot be read.
std::vector<std::string> folder_entries(const std::string& folder);

// huggingface_hub's try_to_load_from_cache for config.json (or the one .gguf of a snapshot).
LocatedModel locate_in_hub(const std::string& repo_id, const std::string& revision);
bool looks_like_repo_id(const std::string& text);

// Ollama's manifest of NAME[:TAG], and the blob of its model layer.
LocatedModel locate_in_ollama(const std::string& name);

}  // namespace ropelens::input_detail
