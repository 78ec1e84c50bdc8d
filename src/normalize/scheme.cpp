// Which positional scheme the config uses, and the settings of the non-RoPE ones.
#include <fmt/format.h>

#include "normalizing.hpp"

namespace ropelens::normalize_detail {
namespace {

std::optional<Hit> child(const Hit& parent, std::string_view key) {
  if (parent.is_null() || !parent.value->is_object()) return std::nullopt;
  auto it = parent.value->find(std::string(key));
  if (it == parent.value->end()) return std::nullopt;
  return Hit{&*it, json_pointer_join(parent.pointer, key)};
}

void read_alibi(Normalizing& n, std::optional<Hit> bias_max) {
  AlibiInfo alibi;
  if (auto heads = n.view.find_value({"num_attention_heads", "n_head", "n_heads", "num_heads"}))
    if (auto value = read_integer(*heads, n.issues, "number of attention heads", 1, 65536))
      alibi.num_heads = static_cast<int>(*value);
  if (bias_max)
    if (auto value = read_number(*bias_max, n.issues, "alibi_bias_max")) {
      if (*value > 0.0) alibi.bias_max = {*value, Provenance::at(bias_max->pointer)};
      else n.issues.add(bias_max->pointer, invalid_number("alibi_bias_max", InvalidReason::not_positive, *value));
    }
  n.model.alibi = alibi;
}

void read_mpt(Normalizing& n) {
  auto attn = n.view.find("attn_config");
  auto alibi = attn ? child(*attn, "alibi") : std::nullopt;
  bool uses_alibi = alibi && alibi->value->is_boolean() && alibi->value->get<bool>();
  if (uses_alibi) {
    n.model.scheme = PositionScheme::alibi;
    n.model.scheme_from = Provenance::at(alibi->pointer);
    read_alibi(n, child(*attn, "alibi_bias_max"));
    return;
  }
  n.model.scheme = PositionScheme::learned_absolute;
  n.model.scheme_from = alibi ? Provenance::at(alibi->pointer)
                              : Provenance::by_default("MPT default attn_config.alibi false: learned positions");
}

void read_t5(Normalizing& n) {
  T5Buckets t5;
  t5.num_buckets = {32, Provenance::by_default("transformers T5 default relative_attention_num_buckets 32")};
  t5.max_distance = {128, Provenance::by_default("transformers T5 default relative_attention_max_distance 128")};
  if (auto hit = n.view.find_value({"relative_attention_num_buckets"}))
    if (auto v = read_integer(*hit, n.issues, "relative_attention_num_buckets", 4, kMaxT5Buckets))
      t5.num_buckets = {static_cast<int>(*v), Provenance::at(hit->pointer)};
  if (auto hit = n.view.find_value({"relative_attention_max_distance"}))
    if (auto v = read_integer(*hit, n.issues, "relative_attention_max_distance", 1, 1 << 30)) {
      // The causal half has num_buckets/2 exact distances; the log-spaced part needs room beyond them.
      if (*v > t5.num_buckets.value / 2) t5.max_distance = {static_cast<int>(*v), Provenance::at(hit->pointer)};
      else
        n.issues.add(hit->pointer, InvalidValue{.field = "relative_attention_max_distance",
                                                .reason = InvalidReason::within_exact_buckets,
                                                .value = static_cast<double>(*v),
                                                .minimum = t5.num_buckets.value / 2});
    }
  if (t5.max_distance.value <= t5.num_buckets.value / 2)
    t5.max_distance = {t5.num_buckets.value, Provenance::derived("raised to num_buckets: the default is too small")};
  n.model.t5 = t5;
}

// Llama 4: NoPE layers scale their queries with the log of the position (attn_temperature_tuning).
void read_nope_temperature(Normalizing& n) {
  NopeTemperature t;
  t.enabled = true;
  Provenance enabled_from =
      Provenance::by_default("transformers Llama4TextConfig default attn_temperature_tuning true");
  if (auto hit = n.view.find_value({"attn_temperature_tuning"})) {
    const auto& v = *hit->value;
    if (v.is_boolean()) t.enabled = v.get<bool>();
    else if (v.is_number()) t.enabled = v.get<double>() != 0.0;  // configs write 4; transformers treats it as truthy
    else n.issues.add(hit->pointer, wrong_type("attn_temperature_tuning", ValueType::boolean, v));
    enabled_from = Provenance::at(hit->pointer);
  }
  t.enabled_from = enabled_from;
  t.floor_scale = {8192.0, Provenance::by_default("transformers Llama4TextConfig default floor_scale 8192")};
  t.attn_scale = {0.1, Provenance::by_default("transformers Llama4TextConfig default attn_scale 0.1")};
  if (auto hit = n.view.find_value({"floor_scale"}))
    if (auto v = read_number(*hit, n.issues, "floor_scale")) {
      if (*v >= 1.0) t.floor_scale = {*v, Provenance::at(hit->pointer)};
      else
        n.issues.add(
            hit->pointer,
            InvalidValue{.field = "floor_scale", .reason = InvalidReason::below_minimum, .value = *v, .minimum = 1});
    }
  if (auto hit = n.view.find_value({"attn_scale"}))
    if (auto v = read_number(*hit, n.issues, "attn_scale")) t.attn_scale = {*v, Provenance::at(hit->pointer)};
  n.model.nope_temperature = t;
}

// Kimi-Linear: mla_use_nope makes the latent-attention layers carry no positions (vLLM kimi_linear.py).
void read_mla_nope(Normalizing& n) {
  auto hit = n.view.find_value({"mla_use_nope"});
  if (!hit || !hit->value->is_boolean() || !hit->value->get<bool>()) return;
  n.model.scheme = PositionScheme::none;
  n.model.scheme_from = Provenance::at(hit->pointer);
}

}  // namespace

void read_scheme(Normalizing& n) {
  Model& model = n.model;
  model.scheme = n.family.scheme;
  model.scheme_from = Provenance::by_default(fmt::format("model_type '{}'", model.model_type.value));
  if (n.family.dialect == Dialect::deepseek) return read_mla_nope(n);
  const auto& type = model.model_type.value;

  if (type == "mpt") return read_mpt(n);
  if (model.scheme == PositionScheme::alibi) return read_alibi(n, n.view.find_value({"alibi_bias_max"}));
  if (model.scheme == PositionScheme::t5_relative) return read_t5(n);
  if (type == "falcon") {
    if (auto hit = n.view.find_value({"alibi"}); hit && hit->value->is_boolean() && hit->value->get<bool>()) {
      model.scheme = PositionScheme::alibi;
      model.scheme_from = Provenance::at(hit->pointer);
      read_alibi(n, std::nullopt);
    }
    return;
  }
  if (type == "bert" || type == "roberta") {
    auto hit = n.view.find_value({"position_embedding_type"});
    if (hit && hit->value->is_string() && hit->value->get<std::string>() != "absolute")
      model.notes.push_back(
          fmt::format("position_embedding_type '{}' adds relative-position terms on top of the "
                      "learned table",
                      hit->value->get<std::string>()));
  }
  if (n.family.dialect == Dialect::llama4) read_nope_temperature(n);
  if (type == "chatglm") {
    auto hit = n.view.find_value({"position_encoding_2d"});
    if (hit && hit->value->is_boolean() && hit->value->get<bool>()) {
      model.scheme = PositionScheme::rope_2d;
      model.scheme_from = Provenance::at(hit->pointer);
      model.notes.push_back(
          "ChatGLM-1 2-D rotary positions (position_encoding_2d): two position ids per token, "
          "defined in remote code; ropelens does not compute them");
    }
  }
}

}  // namespace ropelens::normalize_detail
