// What each attention layer caches per token: key/value heads and widths, MLA's latent, shared-KV layers and the
// dtype the weights (and so transformers' and vLLM's default cache) are stored in. Read for every scheme: a model
// without RoPE has a KV cache too.
#include <fmt/format.h>

#include "ropelens/normalize/normalize.hpp"
#include "normalizing.hpp"

namespace ropelens::normalize_detail {
namespace {

// Unusable values are reported where the RoPE readers use them (dims.cpp), so this reader stays quiet.
std::optional<Field<int>> read_count(Normalizing& n, std::initializer_list<std::string_view> keys,
                                     std::string_view what, int min = 1) {
  auto hit = n.view.find_value(keys);
  if (!hit) return std::nullopt;
  std::vector<ConfigIssue> ignored;
  Issues quiet(ignored);
  auto value = read_integer(*hit, quiet, what, min, 1 << 24);
  if (!value) return std::nullopt;
  return Field<int>{static_cast<int>(*value), Provenance::at(hit->pointer)};
}

bool flag_set(Normalizing& n, std::string_view key) {
  auto hit = n.view.find_value({key});
  return hit && hit->value->is_boolean() && hit->value->get<bool>();
}

// DeciLM: num_attention_heads // attention.n_heads_in_group of the first block that attends (vLLM nemotron_nas.py
// DeciLMDecoderLayer); ropelens keeps one head count per model.
std::optional<Field<int>> block_kv_heads(Normalizing& n) {
  auto blocks = n.view.find_value({"block_configs"});
  auto heads = read_count(n, {"num_attention_heads"}, "num_attention_heads");
  if (!blocks || !blocks->value->is_array() || !heads) return std::nullopt;
  for (std::size_t i = 0; i < blocks->value->size(); ++i) {
    const auto& block = (*blocks->value)[i];
    if (!block.is_object() || !block.contains("attention") || !block["attention"].is_object()) continue;
    const auto& group = block["attention"].value("n_heads_in_group", nlohmann::json());
    if (!group.is_number_integer() || group.get<long long>() < 1) continue;
    const int per_group = static_cast<int>(group.get<long long>());
    const std::string pointer = json_pointer_join(
        json_pointer_join(json_pointer_join(blocks->pointer, std::to_string(i)), "attention"), "n_heads_in_group");
    return Field<int>{
        heads->value / per_group,
        Provenance::derived(fmt::format("num_attention_heads {} // n_heads_in_group {}", heads->value, per_group),
                            pointer)};
  }
  return std::nullopt;
}

// num_key_value_heads and its spellings; ChatGLM's and Falcon's multi-query flags; else every head (multi-head).
std::optional<Field<int>> read_kv_heads(Normalizing& n) {
  if (auto heads = read_count(n, {"num_key_value_heads", "num_kv_heads", "n_head_kv"}, "num_key_value_heads"))
    return heads;
  if (flag_set(n, "multi_query_attention"))
    if (auto groups = read_count(n, {"multi_query_group_num"}, "multi_query_group_num")) return groups;
  if (auto hit = n.view.find_value({"multi_query"}); hit && hit->value->is_boolean() && hit->value->get<bool>())
    return Field<int>{1, Provenance::derived("multi_query true: one key/value head", hit->pointer)};
  return block_kv_heads(n);
}

std::optional<Field<int>> read_head_dim(Normalizing& n, const std::optional<Field<int>>& heads) {
  if (auto dim = read_count(n, {"head_dim"}, "head_dim")) return dim;
  if (n.family.default_head_dim > 0)
    return Field<int>{n.family.default_head_dim,
                      Provenance::by_default(fmt::format("transformers {} class default head_dim {}",
                                                         n.family.model_type, n.family.default_head_dim))};
  if (auto channels = read_count(n, {"kv_channels"}, "kv_channels")) return channels;
  auto hidden = read_count(n, {"hidden_size", "n_embd", "d_model", "n_embed"}, "hidden_size");
  if (!hidden || !heads) return std::nullopt;
  return Field<int>{
      hidden->value / heads->value,
      Provenance::derived(fmt::format("hidden_size {} // num_attention_heads {}", hidden->value, heads->value),
                          hidden->from.pointer)};
}

Field<int> mla_dim(Normalizing& n, std::string_view key, int fallback) {
  if (auto dim = read_count(n, {key}, key)) return *dim;
  return {fallback, Provenance::by_default(fmt::format("transformers DeepseekV3Config default {} {}", key, fallback))};
}

// DeepSeek-V2/V3 and kin: the latent (kv_lora_rank) plus the shared rotary key part, or full K and V per head.
void read_mla(Normalizing& n, KvShape& kv) {
  kv.kv_lora_rank = read_count(n, {"kv_lora_rank"}, "kv_lora_rank");
  if (!kv.kv_lora_rank) return;
  kv.qk_rope_head_dim = mla_dim(n, "qk_rope_head_dim", 64);
  const Field<int> nope = mla_dim(n, "qk_nope_head_dim", 128);
  kv.head_dim = Field<int>{nope.value + kv.qk_rope_head_dim->value,
                           Provenance::derived(fmt::format("qk_nope_head_dim {} + qk_rope_head_dim {}", nope.value,
                                                           kv.qk_rope_head_dim->value),
                                               nope.from.pointer)};
  kv.v_head_dim = mla_dim(n, "v_head_dim", 128);
}

// MiMo-V2's sliding layers have their own key/value heads and widths (swa_num_key_value_heads, swa_head_dim,
// swa_v_head_dim: vLLM mimo_v2.py @9aaf83ef). transformers' MiMoV2FlashAttention doubles num_key_value_heads on them.
void read_mimo_sliding(Normalizing& n, KvShape& kv) {
  kv.v_head_dim = read_count(n, {"v_head_dim"}, "v_head_dim");
  kv.sliding_num_kv_heads = read_count(n, {"swa_num_key_value_heads"}, "swa_num_key_value_heads");
  if (!kv.sliding_num_kv_heads && n.family.transformers_native)
    if (auto heads = read_count(n, {"num_key_value_heads"}, "num_key_value_heads"))
      kv.sliding_num_kv_heads =
          Field<int>{2 * heads->value,
                     Provenance::derived(
                         fmt::format("2 × num_key_value_heads {} (transformers MiMoV2FlashAttention)", heads->value),
                         heads->from.pointer)};
  kv.sliding_head_dim = read_count(n, {"swa_head_dim"}, "swa_head_dim");
  kv.sliding_v_head_dim = read_count(n, {"swa_v_head_dim"}, "swa_v_head_dim");
}

}  // namespace

void read_kv_shape(Normalizing& n) {
  KvShape& kv = n.model.kv;
  kv.num_attention_heads =
      read_count(n, {"num_attention_heads", "n_head", "n_heads", "num_heads"}, "num_attention_heads");
  kv.num_kv_heads = read_kv_heads(n);
  kv.global_num_kv_heads = read_count(n, {"num_global_key_value_heads"}, "num_global_key_value_heads");
  kv.global_head_dim = read_count(n, {"global_head_dim"}, "global_head_dim");
  kv.num_kv_shared_layers = read_count(n, {"num_kv_shared_layers"}, "num_kv_shared_layers", 0);
  if (n.family.dialect == Dialect::mimo_v2) read_mimo_sliding(n, kv);
  if (n.family.dialect == Dialect::deepseek) read_mla(n, kv);
  if (!kv.head_dim) kv.head_dim = read_head_dim(n, kv.num_attention_heads);
  if (auto hit = n.view.find_value({"torch_dtype", "dtype"}); hit && hit->value->is_string())
    kv.dtype = Field<std::string>{hit->value->get<std::string>(), Provenance::at(hit->pointer)};
}

}  // namespace ropelens::normalize_detail
