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
// Whether the hub cache holds any snapshot folder for the id.
bool hub_has_model(const std::string& repo_id);

// Ollama's manifest of NAME[:TAG], and the blob of its model layer.
LocatedModel locate_in_ollama(const std::string& name);
// "ollama:NAME:TAG" when `text`, read as an Ollama name, has a manifest in Ollama's store: what a user who wrote
// `llama3.1:8b` meant.
std::optional<std::string> ollama_spelling(const std::string& text);

}  // namespace ropelens::input_detail
