// What each layer caches per token: the key/value heads of its attention kind, MLA's latent, or nothing.
#include <fmt/format.h>

#include "ropelens/memory/kv_layers.hpp"

#include <algorithm>

namespace ropelens::kv_detail {
namespace {

// Models whose cache this module does not size: encoders keep none, encoder-decoders add cross-attention.
std::optional<std::string> unsized_architecture(const Model& model) {
  static const std::vector<std::string_view> encoders = {"bert", "roberta", "distilbert"};
  static const std::vector<std::string_view> encoder_decoders = {"t5",     "mt5",     "umt5", "bart",
                                                                 "marian", "m2m_100", "fsmt"};
  const std::string& type = model.model_type.value;
  for (auto name : encoders)
    if (type == name) return fmt::format("model_type '{}' is an encoder: it keeps no KV cache", type);
  for (auto name : encoder_decoders)
    if (type == name)
      return fmt::format("model_type '{}' is an encoder-decoder: its cross-attention cache is not modelled", type);
  return std::nullopt;
}

std::optional<std::string> missing_dims(const KvShape& kv) {
  if (!kv.num_kv_heads && !kv.num_attention_heads)
    return std::string("the config gives no num_key_value_heads or num_attention_heads");
  if (!kv.head_dim) return std::string("the config gives no head_dim, and no hidden_size with num_attention_heads");
  return std::nullopt;
}

// Gemma 4 full-attention layers and MiMo-V2 sliding layers have their own head count and widths.
KvRow heads_row(const KvShape& kv, const Layer* layer) {
  const bool full = layer != nullptr && layer->layer_type == "full_attention";
  const bool sliding = layer != nullptr && layer->layer_type == "sliding_attention";
  const bool mla = kv.kv_lora_rank.has_value();
  int heads = kv.num_kv_heads ? kv.num_kv_heads->value : kv.num_attention_heads->value;
  if (mla && kv.num_attention_heads) heads = kv.num_attention_heads->value;  // transformers expands K to every head
  if (full && kv.global_num_kv_heads) heads = kv.global_num_kv_heads->value;
  if (sliding && kv.sliding_num_kv_heads) heads = kv.sliding_num_kv_heads->value;
  int k_dim = full && kv.global_head_dim ? kv.global_head_dim->value : kv.head_dim->value;
  if (sliding && kv.sliding_head_dim) k_dim = kv.sliding_head_dim->value;
  int v_dim = kv.v_head_dim ? kv.v_head_dim->value : k_dim;
  if (sliding && kv.sliding_v_head_dim) v_dim = kv.sliding_v_head_dim->value;
  return {static_cast<std::int64_t>(heads) * k_dim, static_cast<std::int64_t>(heads) * v_dim};
}

int heads_of(const KvShape& kv, const Layer* layer) {
  const bool full = layer != nullptr && layer->layer_type == "full_attention";
  const bool sliding = layer != nullptr && layer->layer_type == "sliding_attention";
  int heads = kv.num_kv_heads ? kv.num_kv_heads->value : kv.num_attention_heads->value;
  if (kv.kv_lora_rank.has_value() && kv.num_attention_heads) heads = kv.num_attention_heads->value;
  if (full && kv.global_num_kv_heads) heads = kv.global_num_kv_heads->value;
  if (sliding && kv.sliding_num_kv_heads) heads = kv.sliding_num_kv_heads->value;
  return heads;
}

std::string group_of(const Model& model, const Layer* layer) {
  if (layer == nullptr) return "all";
  if (!layer->attends) return layer->layer_type;
  if (layer->setup >= 0) return model.setups[static_cast<std::size_t>(layer->setup)].name;
  return "nope";
}

// Gemma 3n: the last num_kv_shared_layers layers read the cache of the last earlier layer of their type.
int kv_source_of(const Model& model, int index, int first_shared) {
  const std::string& type = model.layers[static_cast<std::size_t>(index)].layer_type;
  for (int i = first_shared - 1; i >= 0; --i)
    if (model.layers[static_cast<std::size_t>(i)].layer_type == type) return i;
  return first_shared - 1;
}

}  // namespace

CachingLayers caching_layers(const Model& model) {
  CachingLayers out;
  out.not_computed = unsized_architecture(model);
  if (!out.not_computed) out.not_computed = missing_dims(model.kv);
  if (out.not_computed) return out;
  const KvShape& kv = model.kv;
  const int count = model.layers.empty() ? model.num_layers.value : static_cast<int>(model.layers.size());
  const int shared = kv.num_kv_shared_layers && !model.layers.empty() ? kv.num_kv_shared_layers->value : 0;
  const int first_shared = shared > 0 && shared < count ? count - shared : count;
  for (int i = 0; i < count; ++i) {
    const Layer* layer = model.layers.empty() ? nullptr : &model.layers[static_cast<std::size_t>(i)];
    CachingLayer caching;
    caching.index = i;
    caching.group = group_of(model, layer);
    if (layer != nullptr && !layer->attends) {
      caching.caching = LayerCaching::no_attention;
    } else if (i >= first_shared) {
      caching.caching = LayerCaching::shares_kv;
      caching.kv_source = kv_source_of(model, i, first_shared);
    }
    if (layer != nullptr && layer->attention != AttentionKind::global) {
      caching.attention = layer->attention;
      caching.window_tokens = layer->window_tokens;
    }
    caching.heads = heads_row(kv, layer);
    caching.kv_heads = heads_of(kv, layer);
    if (kv.kv_lora_rank && kv.qk_rope_head_dim)
      caching.latent = KvRow{kv.kv_lora_rank->value + kv.qk_rope_head_dim->value, 0};
    out.layers.push_back(std::move(caching));
  }
  return out;
}

CachingLayers sharded_by_heads(CachingLayers model, int tp) {
  if (tp <= 1) return model;
  for (CachingLayer& layer : model.layers) {
    const int heads = layer.kv_heads;
    if (heads <= 0 || layer.heads.k % heads != 0 || layer.heads.v % heads != 0) continue;
    const int per_gpu = std::max(1, heads / tp);  // replicated when there are fewer heads than GPUs
    layer.heads = {layer.heads.k / heads * per_gpu, layer.heads.v / heads * per_gpu};
    layer.kv_heads = per_gpu;
  }
  return model;
}

}  // namespace ropelens::kv_detail
