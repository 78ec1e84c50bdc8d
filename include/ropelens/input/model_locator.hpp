// Models by name, offline: Hugging Face ids in the local hub cache and Ollama models, resolved with the rules those
// tools use (docs/engines.md, "Models by name"). Nothing here touches the network.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "ropelens/model/model.hpp"

namespace ropelens {

struct LocatedModel {
  std::string path;   // the file or folder to read
  std::string shown;  // what output calls it: the path, "Org/Name@<commit12>" or "ollama:name:tag@<digest12>"
  std::optional<ModelReference> reference;
};

// A path that exists always wins. Otherwise "ollama:NAME[:TAG]" is looked up in Ollama's model folders and a Hugging
// Face id ("Org/Name", "Org/Name@REV"; `revision` stands for @REV) in the hub cache (HF_HUB_CACHE, else
// HUGGINGFACE_HUB_CACHE, else HF_HOME/hub, else XDG_CACHE_HOME/huggingface/hub, else ~/.cache/huggingface/hub).
// A name found nowhere throws InputError naming the folders searched and the revisions or tags they hold; any other
// spelling is returned as a path, for the reader to report.
LocatedModel locate_model(const std::string& spec, const std::optional<std::string>& revision = std::nullopt);

// The model as a serving engine takes it, as one shell word: a Hugging Face id, a GGUF file, or the folder a
// config.json is in; "" when no engine could load it by name (stdin, a JSON file not named config.json, an Ollama
// model), so that the printed command shows a placeholder.
std::string served_model_word(const std::string& path, const std::optional<ModelReference>& reference);

// metadata.total_size of model.safetensors.index.json in `folder` (bytes of every tensor, tied weights once).
struct SafetensorsIndex {
  std::string path;
  std::optional<std::uint64_t> total_size;
  std::string problem;  // why total_size is missing, when the index exists
};
std::optional<SafetensorsIndex> read_safetensors_index(const std::string& folder);

}  // namespace ropelens
