#include <map>
#include <set>

#include <fmt/format.h>

#include "../support.hpp"

namespace ropelens::rules {
namespace ckpt402 {

// A multi-token-prediction layer (DeepSeek-V3, GLM-4.5) is stored after the decoder layers, under the same prefix,
// and is not one of num_hidden_layers.
static bool is_mtp_part(std::string_view rest) {
  for (std::string_view part : {"eh_proj.", "enorm.", "hnorm.", "shared_head."})
    if (rest.substr(0, part.size()) == part) return true;
  return false;
}

struct StoredLayers {
  std::string_view prefix;
  std::map<int, const CheckpointTensor*> first_tensor;  // by layer index

  std::vector<int> indices() const {
    std::vector<int> layers;
    for (const auto& entry : first_tensor) layers.push_back(entry.first);
    return layers;
  }
};

static StoredLayers stored_layers(const Checkpoint& checkpoint) {
  StoredLayers stored;
  std::set<int> mtp;
  for (const auto& tensor : checkpoint.tensors) {
    const auto at = language_layer_tensor(tensor.name);
    if (!at || (!stored.prefix.empty() && at->prefix != stored.prefix)) continue;
    stored.prefix = at->prefix;
    if (is_mtp_part(at->rest)) mtp.insert(at->layer);
    stored.first_tensor.emplace(at->layer, &tensor);
  }
  for (int layer : mtp) stored.first_tensor.erase(layer);
  return stored;
}

static void check(const Context& cx, Sink& out) {
  const Model& model = cx.model;
  if (!model.checkpoint) return;
  const StoredLayers stored = stored_layers(*model.checkpoint);
  if (stored.first_tensor.empty()) return;
  const int declared = model.num_layers.value;
  std::vector<int> missing, extra;
  for (int layer = 0; layer < declared; ++layer)
    if (!stored.first_tensor.count(layer)) missing.push_back(layer);
  for (const auto& [layer, tensor] : stored.first_tensor)
    if (layer >= declared) extra.push_back(layer);
  if (missing.empty() && extra.empty()) return;
  const std::string key =
      model.num_layers.from.origin == Origin::config ? model.num_layers.from.key() : std::string("num_hidden_layers");
  const std::string pointer =
      model.num_layers.from.pointer.empty() ? model.text_pointer : model.num_layers.from.pointer;
  const CheckpointTensor& example =
      *(extra.empty() ? stored.first_tensor.begin()->second : stored.first_tensor.at(extra.front()));
  const std::string held =
      fmt::format("the checkpoint holds {} decoder layer{} ({}N.*: {}; e.g. {} {})", stored.first_tensor.size(),
                  stored.first_tensor.size() == 1 ? "" : "s", stored.prefix, index_ranges(stored.indices()),
                  example.name, shape_text(example.shape));
  std::string consequence;
  if (!missing.empty())
    consequence = fmt::format("layers {} have no weights and would start from random ones", index_ranges(missing));
  if (!extra.empty())
    consequence += fmt::format("{}the weights of layers {} are never loaded", consequence.empty() ? "" : "; ",
                               index_ranges(extra));
  out.report(pointer, fmt::format("{}, but {} is {}: {}", held, key, declared, consequence))
      .help(fmt::format("set {} to the layers the checkpoint holds, or use the checkpoint this config belongs to", key))
      .fact("tensor", example.name)
      .fact("shape", example.shape)
      .fact("config_key", key)
      .fact("stored_layers", stored.first_tensor.size())
      .fact("declared_layers", declared);
}

}  // namespace ckpt402

extern const Rule CKPT402{{"CKPT402", "layer-count-mismatch", Severity::error,
                           "The checkpoint holds a different number of decoder layers than the config declares"},
                          &ckpt402::check};

}  // namespace ropelens::rules
