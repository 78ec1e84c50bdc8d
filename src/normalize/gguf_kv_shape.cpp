// What a GGUF file's attention layers cache per token, with llama.cpp's loader semantics (llama-hparams.cpp
// n_embd_k_gqa = n_embd_head_k · n_head_kv(il)): head_count_kv may be stored per layer, and a layer with no
// key/value heads is a recurrent layer of a hybrid model (Jamba, Qwen3-Next, LFM2, …), which keeps no KV cache.
#include <algorithm>

#include <fmt/format.h>

#include "ropelens/normalize/normalize.hpp"
#include "gguf_kv_shape.hpp"

namespace ropelens::normalize_detail {
namespace {

std::string shape_pointer_of(std::string_view key) { return fmt::format("gguf:{}", key); }

std::optional<Field<int>> count_of(const GgufFile& file, const std::string& key) {
  const GgufValue* value = file.find(key);
  auto number = value ? value->as_integer() : std::nullopt;
  if (!number || *number < 1 || *number > (1 << 24)) return std::nullopt;
  return Field<int>{static_cast<int>(*number), Provenance::at(shape_pointer_of(key))};
}

// Per-layer key/value head counts; empty when the key holds one number for every layer.
std::vector<std::int64_t> per_layer(const GgufFile& file, const std::string& key) {
  const GgufValue* value = file.find(key);
  const GgufArray* array = value ? value->as_array() : nullptr;
  std::vector<std::int64_t> out;
  if (!array || !array->kept()) return out;
  for (const auto& element : array->elements) out.push_back(integer_of(element).value_or(0));
  return out;
}

// Layers without key/value heads leave their setups; setups left empty are dropped and the rest renumbered.
void drop_from_setups(Model& model, const std::vector<bool>& attends) {
  for (auto& setup : model.setups)
    setup.layers.erase(std::remove_if(setup.layers.begin(), setup.layers.end(),
                                      [&](int i) { return !attends[static_cast<std::size_t>(i)]; }),
                       setup.layers.end());
  std::vector<int> renumbered(model.setups.size(), -1);
  std::vector<RopeSetup> kept;
  for (std::size_t s = 0; s < model.setups.size(); ++s) {
    if (model.setups[s].layers.empty()) continue;
    renumbered[s] = static_cast<int>(kept.size());
    kept.push_back(std::move(model.setups[s]));
  }
  model.setups = std::move(kept);
  for (auto& layer : model.layers)
    layer.setup = layer.attends && layer.setup >= 0 ? renumbered[static_cast<std::size_t>(layer.setup)] : -1;
}

void mark_layers_without_attention(Model& model, const std::vector<std::int64_t>& kv_heads, const std::string& key) {
  if (kv_heads.size() != model.layers.size()) return;
  std::vector<bool> attends;
  for (std::size_t i = 0; i < kv_heads.size(); ++i) attends.push_back(kv_heads[i] > 0);
  if (std::all_of(attends.begin(), attends.end(), [](bool a) { return a; })) return;
  for (std::size_t i = 0; i < attends.size(); ++i) {
    if (attends[i]) continue;
    model.layers[i].attends = false;
    model.layers[i].uses_rope = false;
    model.layers[i].layer_type = "recurrent";
    model.layers[i].attention = AttentionKind::global;
    model.layers[i].window_tokens.reset();
  }
  drop_from_setups(model, attends);
  model.hybrid_schedule_from = Provenance::at(shape_pointer_of(key));
  model.notes.push_back(
      fmt::format("{} is 0 for {} of {} layers: llama.cpp runs them as recurrent layers, without "
                  "attention or KV cache",
                  key, std::count(attends.begin(), attends.end(), false), attends.size()));
}

}  // namespace

void read_gguf_kv_shape(const GgufFile& file, const std::string& arch, Model& model) {
  auto key = [&](std::string_view suffix) { return fmt::format("{}.{}", arch, suffix); };
  KvShape& kv = model.kv;
  kv.num_attention_heads = model.num_attention_heads;
  const std::string kv_key = key("attention.head_count_kv");
  const std::vector<std::int64_t> kv_heads = per_layer(file, kv_key);
  if (!kv_heads.empty()) {
    const auto largest = *std::max_element(kv_heads.begin(), kv_heads.end());
    if (largest > 0) kv.num_kv_heads = Field<int>{static_cast<int>(largest), Provenance::at(shape_pointer_of(kv_key))};
    mark_layers_without_attention(model, kv_heads, kv_key);
  } else {
    kv.num_kv_heads = count_of(file, kv_key);
  }
  if (auto rank = count_of(file, key("attention.kv_lora_rank"))) {
    // The converter stores MLA as one key/value head of kv_lora_rank + rope dims; transformers' per-head widths
    // are key_length_mla and value_length_mla.
    kv.kv_lora_rank = rank;
    kv.qk_rope_head_dim = count_of(file, key("rope.dimension_count"));
    kv.head_dim = count_of(file, key("attention.key_length_mla"));
    kv.v_head_dim = count_of(file, key("attention.value_length_mla"));
  }
  if (!kv.head_dim) kv.head_dim = count_of(file, key("attention.key_length"));
  if (!kv.v_head_dim) kv.v_head_dim = count_of(file, key("attention.value_length"));
  if (!kv.head_dim) {
    auto embedding = count_of(file, key("embedding_length"));
    if (embedding && kv.num_attention_heads)
      kv.head_dim = Field<int>{embedding->value / kv.num_attention_heads->value,
                               Provenance::derived(fmt::format("embedding_length {} / head_count {}", embedding->value,
                                                               kv.num_attention_heads->value),
                                                   embedding->from.pointer)};
  }
  kv.dtype = Field<std::string>{"f16", Provenance::by_default("llama.cpp default --cache-type-k/-v f16")};
  if (file.tensor_bytes)
    model.weights_bytes = Field<std::uint64_t>{
        *file.tensor_bytes, Provenance::derived("sum of the tensors' ggml_nbytes in the GGUF header", "gguf:tensors")};
}

}  // namespace ropelens::normalize_detail
