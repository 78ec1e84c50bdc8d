#include "ropelens/model/model.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <utility>

#include <fmt/format.h>

#include "ropelens/model/text.hpp"

namespace ropelens {

Provenance Provenance::at(std::string pointer) { return {Origin::config, std::move(pointer), {}}; }

Provenance Provenance::by_default(std::string note) { return {Origin::defaulted, {}, std::move(note)}; }

Provenance Provenance::derived(std::string formula, std::string pointer) {
  return {Origin::derived, std::move(pointer), std::move(formula)};
}

std::string Provenance::key() const { return json_pointer_key(pointer); }

std::string Provenance::describe() const {
  switch (origin) {
    case Origin::config: return pointer.empty() ? "(document)" : pointer;
    case Origin::defaulted: return "default: " + note;
    case Origin::derived: return "derived: " + note;
  }
  return {};
}

namespace {
constexpr std::array<std::pair<RopeType, std::string_view>, 7> kRopeTypeNames{{
    {RopeType::default_rope, "default"},
    {RopeType::linear, "linear"},
    {RopeType::dynamic, "dynamic"},
    {RopeType::yarn, "yarn"},
    {RopeType::longrope, "longrope"},
    {RopeType::llama3, "llama3"},
    {RopeType::proportional, "proportional"},
}};
}  // namespace

std::string_view to_string(RopeType type) {
  for (const auto& [t, name] : kRopeTypeNames)
    if (t == type) return name;
  return "default";
}

std::optional<RopeType> parse_rope_type(std::string_view name) {
  for (const auto& [t, n] : kRopeTypeNames)
    if (n == name) return t;
  return std::nullopt;
}

std::string_view to_string(Pairing pairing) { return pairing == Pairing::rotate_half ? "rotate_half" : "interleaved"; }

std::string_view to_string(PositionScheme scheme) {
  switch (scheme) {
    case PositionScheme::rope: return "rope";
    case PositionScheme::alibi: return "alibi";
    case PositionScheme::learned_absolute: return "learned_absolute";
    case PositionScheme::sinusoidal: return "sinusoidal";
    case PositionScheme::t5_relative: return "t5_relative_buckets";
    case PositionScheme::rope_2d: return "rope_2d";
    case PositionScheme::none: return "none";
  }
  return "none";
}

std::string_view to_string(AttentionKind kind) {
  switch (kind) {
    case AttentionKind::global: return "global";
    case AttentionKind::sliding: return "sliding";
    case AttentionKind::chunked: return "chunked";
  }
  return "global";
}

bool GgufFacts::factor_applies() const {
  const auto& type = scaling_type.value;
  return scaling_factor && (type == "linear" || type == "yarn" || type == "longrope");
}

bool GgufFacts::extends() const { return !factor_tensors.empty() || (factor_applies() && scaling_factor->value > 1.0); }

const GgufFactorTensor* GgufFacts::factor_tensor(std::string_view name) const {
  auto it = std::find_if(factor_tensors.begin(), factor_tensors.end(),
                         [&](const GgufFactorTensor& tensor) { return tensor.name == name; });
  return it == factor_tensors.end() ? nullptr : &*it;
}

std::vector<int> Model::nope_layers() const {
  std::vector<int> out;
  for (const auto& layer : layers)
    if (layer.attends && !layer.uses_rope) out.push_back(layer.index);
  return out;
}

std::vector<int> Model::attention_layers() const {
  std::vector<int> out;
  if (layers.empty())
    for (int i = 0; i < num_layers.value; ++i) out.push_back(i);
  for (const auto& layer : layers)
    if (layer.attends) out.push_back(layer.index);
  return out;
}

namespace {

// Layers that mix tokens without RoPE and without a per-token KV cache: linear attention (Gated DeltaNet,
// lightning), Mamba, short convolutions, and cross-attention to the image. MLP-only layers mix nothing.
bool mixes_tokens(const Layer& layer) { return layer.layer_type != "mlp" && layer.layer_type != "moe"; }

// "RoPE chunked 8192", "NoPE global", "linear_attention (no RoPE)", "mlp (no attention)"
std::string schedule_group(const Layer& layer) {
  if (!layer.attends) return layer.layer_type + (mixes_tokens(layer) ? " (no RoPE)" : " (no attention)");
  std::string key = layer.uses_rope ? "RoPE" : "NoPE";
  key += " ";
  key += to_string(layer.attention);
  if (layer.window_tokens && layer.attention != AttentionKind::global) key += fmt::format(" {}", *layer.window_tokens);
  return key;
}

}  // namespace

// "48 layers: 36 RoPE chunked 8192, 12 NoPE global"
std::string Model::schedule_summary() const {
  if (layers.empty()) return fmt::format("{} layers", num_layers.value);
  std::map<std::string, int> groups;
  std::vector<std::string> order;
  for (const auto& layer : layers) {
    std::string key = schedule_group(layer);
    if (groups[key]++ == 0) order.push_back(key);
  }
  std::string out = fmt::format("{} layers:", layers.size());
  for (std::size_t i = 0; i < order.size(); ++i)
    out += fmt::format("{} {} {}", i == 0 ? "" : ",", groups[order[i]], order[i]);
  return out;
}

const LengthKey* Model::length_key(std::string_view key) const {
  auto found = std::find_if(length_keys.begin(), length_keys.end(), [&](const LengthKey& k) { return k.key == key; });
  return found == length_keys.end() ? nullptr : &*found;
}

bool Model::states_key(std::string_view key) const {
  return std::binary_search(config_keys.begin(), config_keys.end(), key);
}

Field<std::int64_t> Model::declared_length() const {
  Field<std::int64_t> shortest = max_position_embeddings;
  for (const auto& key : length_keys)
    if (key.tokens.value < shortest.value) shortest = key.tokens;
  return shortest;
}

}  // namespace ropelens

namespace ropelens {

const CheckpointTensor* Checkpoint::find(std::string_view name) const {
  const auto at = std::lower_bound(tensors.begin(), tensors.end(), name,
                                   [](const CheckpointTensor& t, std::string_view wanted) { return t.name < wanted; });
  return at != tensors.end() && at->name == name ? &*at : nullptr;
}

}  // namespace ropelens
