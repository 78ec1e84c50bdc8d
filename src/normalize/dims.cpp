// Head and rotary dimensions: head_dim, hidden/heads, kv_channels, MLA's qk_rope_head_dim, partial rotary.
#include <cmath>

#include <fmt/format.h>

#include "ropelens/normalize/normalize.hpp"
#include "normalizing.hpp"

namespace ropelens::normalize_detail {
namespace {

std::optional<Field<int>> read_dim(Normalizing& n, std::initializer_list<std::string_view> keys, std::string_view what,
                                   int max = kMaxHeadDim) {
  auto hit = n.view.find_value(keys);
  if (!hit) return std::nullopt;
  auto value = read_integer(*hit, n.issues, what, 1, max);
  if (!value) return std::nullopt;
  return Field<int>{static_cast<int>(*value), Provenance::at(hit->pointer)};
}

bool dims_zero_at(Normalizing& n, std::string_view key) {
  auto hit = n.view.find_value({key});
  return hit && hit->value->is_number_integer() && hit->value->get<std::int64_t>() == 0;
}

// vLLM deepseek_v2.py (DeepseekV2DecoderLayer, @b863fe5bf4e19680572603b4e166faefc5725551): `use_mha` when
// qk_nope_head_dim and qk_rope_head_dim are both 0 (DeepSeek-OCR's language model, `use_mla` false): plain multi-head
// attention, DeepseekAttention, whose heads rotate whole as Llama's do; there is no latent and no rotary part.
bool deepseek_without_mla(Normalizing& n) {
  return n.family.dialect == Dialect::deepseek && dims_zero_at(n, "qk_rope_head_dim") &&
         dims_zero_at(n, "qk_nope_head_dim");
}

Field<int> resolve_head_dim(Normalizing& n, const std::optional<Field<int>>& heads) {
  const auto& family = n.family;
  if (family.dialect == Dialect::deepseek && deepseek_without_mla(n)) {
    n.model.notes.push_back(
        "qk_nope_head_dim and qk_rope_head_dim are 0: multi-head attention without MLA (vLLM's use_mha), each head "
        "rotating whole");
  } else if (family.dialect == Dialect::deepseek) {
    if (auto rope = read_dim(n, {"qk_rope_head_dim"}, "qk_rope_head_dim")) {
      n.model.notes.push_back(
          "MLA: RoPE acts only on the qk_rope_head_dim part of each head (head_dim := "
          "qk_rope_head_dim); the qk_nope_head_dim part carries no position");
      n.model.qk_nope_head_dim = read_dim(n, {"qk_nope_head_dim"}, "qk_nope_head_dim");
      return *rope;
    }
    return {64, Provenance::by_default("transformers DeepseekV3Config default qk_rope_head_dim 64")};
  }
  if (family.dialect == Dialect::chatglm || family.dialect == Dialect::qwen1)
    if (auto kv = read_dim(n, {"kv_channels"}, "kv_channels")) return *kv;
  if (auto explicit_dim = read_dim(n, {"head_dim"}, "head_dim")) return *explicit_dim;
  if (family.default_head_dim > 0)
    return {family.default_head_dim, Provenance::by_default(fmt::format("transformers {} class default head_dim {}",
                                                                        family.model_type, family.default_head_dim))};
  if (n.dims.hidden_size && heads) {
    int value = n.dims.hidden_size->value / heads->value;
    if (value > kMaxHeadDim) {
      InvalidValue invalid =
          invalid_number("head_dim (hidden_size // num_attention_heads)", InvalidReason::above_maximum, value);
      invalid.maximum = kMaxHeadDim;
      n.issues.add(n.dims.hidden_size->from.pointer, invalid);
      if (n.model.scheme == PositionScheme::rope) n.issues.add("", UnderivableHeadDim{value, kMaxHeadDim});
      return {128, Provenance::by_default("assumed 128: hidden_size // num_attention_heads is above the maximum")};
    }
    return {value, Provenance::derived(
                       fmt::format("hidden_size {} // num_attention_heads {}", n.dims.hidden_size->value, heads->value),
                       n.dims.hidden_size->from.pointer)};
  }
  if (n.model.scheme == PositionScheme::rope) n.issues.add("", UnderivableHeadDim{});
  return {128, Provenance::by_default("assumed 128: the config gives no way to derive head_dim")};
}

void resolve_partial_rotary(Normalizing& n) {
  auto& dims = n.dims;
  // DeepseekV4Config: partial_rotary_factor is qk_rope_head_dim / head_dim (64 / 512), the share of the full head that
  // rotates; head_dim here already is qk_rope_head_dim, so the factor is not applied a second time.
  if (n.family.pattern == LayerPattern::deepseek_v4_compression) {
    if (auto hit = n.view.find_value({"partial_rotary_factor"}))
      n.model.notes.push_back(
          fmt::format("{} is the rotated share of the full head (DeepseekV4Config); the "
                      "qk_rope_head_dim {} dims rotate",
                      hit->pointer, dims.head_dim.value));
    return;
  }
  if (auto hit = n.view.find_value({"partial_rotary_factor", "rotary_pct", "rope_pct", "rotary_emb_fraction"})) {
    if (auto value = read_number(*hit, n.issues, "partial rotary factor")) {
      if (*value <= 0.0 || *value > 1.0) {
        n.issues.add(hit->pointer,
                     invalid_number("partial rotary factor", InvalidReason::outside_unit_interval, *value));
      } else {
        dims.partial_rotary_factor = {*value, Provenance::at(hit->pointer)};
        dims.partial_from_attribute = true;
        return;
      }
    }
  }
  if (auto rotary = read_dim(n, {"rotary_dim"}, "rotary_dim")) {
    dims.explicit_rotary_dim = rotary;
    dims.partial_rotary_factor = {
        static_cast<double>(rotary->value) / dims.head_dim.value,
        Provenance::derived(fmt::format("rotary_dim {} / head_dim {}", rotary->value, dims.head_dim.value),
                            rotary->from.pointer)};
    dims.partial_from_attribute = true;
    if (n.model.model_type.value == "minimax_m2")
      n.model.notes.push_back(fmt::format(
          "{} {} of head_dim {}: MiniMax-M2's remote code and vLLM minimax_m2.py rotate {} dims; transformers' "
          "MiniMaxM2Config kept rotary_dim as an extra attribute and rotated all {} until PR #48486 (issue #48241, "
          "v5.16), which maps it to partial_rotary_factor {}",
          rotary->from.pointer, rotary->value, dims.head_dim.value, rotary->value, dims.head_dim.value,
          dims.partial_rotary_factor.value));
    return;
  }
  if (n.family.default_partial_rotary > 0.0) {
    dims.partial_rotary_factor = {
        n.family.default_partial_rotary,
        Provenance::by_default(fmt::format("{} class default partial_rotary_factor {}", n.family.model_type,
                                           n.family.default_partial_rotary))};
    dims.partial_from_attribute = true;
  }
}

// MLA models state their pairing in rope_interleave (transformers DeepseekV3Config, default true); the others pair
// as their family's modeling code does.
void resolve_pairing(Normalizing& n) {
  const std::string_view source =
      n.family.model_type.empty() ? std::string_view(n.model.model_type.value) : n.family.model_type;
  n.model.pairing = {n.family.pairing, Provenance::by_default(fmt::format("{} pairing of model_type '{}'",
                                                                          to_string(n.family.pairing), source))};
  if (n.family.dialect != Dialect::deepseek) return;
  if (deepseek_without_mla(n)) {
    n.model.pairing = {Pairing::rotate_half,
                       Provenance::by_default("multi-head DeepSeek attention (qk_rope_head_dim 0): rotate_half, as "
                                              "Llama's attention")};
    return;
  }
  auto hit = n.view.find_value({"rope_interleave"});
  if (!hit) return;
  if (auto interleave = read_bool(*hit, n.issues, "rope_interleave"))
    n.model.pairing = {*interleave ? Pairing::interleaved : Pairing::rotate_half, Provenance::at(hit->pointer)};
}

}  // namespace

void read_dims(Normalizing& n) {
  if (n.model.scheme != PositionScheme::rope) return;
  n.dims.hidden_size = read_dim(n, {"hidden_size", "n_embd", "d_model", "n_embed"}, "hidden_size", 1 << 24);
  std::optional<Field<int>> heads;
  if (auto hit = n.view.find_value({"num_attention_heads", "n_head", "n_heads", "num_heads"}))
    if (auto value = read_integer(*hit, n.issues, "num_attention_heads", 1, 1 << 20))
      heads = Field<int>{static_cast<int>(*value), Provenance::at(hit->pointer)};
  n.model.num_attention_heads = heads;
  n.dims.head_dim = resolve_head_dim(n, heads);
  n.dims.global_head_dim = read_dim(n, {"global_head_dim"}, "global_head_dim");
  resolve_partial_rotary(n);
  resolve_pairing(n);
}

}  // namespace ropelens::normalize_detail
