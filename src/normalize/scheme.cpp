// Which positional scheme the config uses, and the settings of the non-RoPE ones.
#include <fmt/format.h>

#include "normalizing.hpp"

namespace ropelens::normalize_detail {
namespace {

std::optional<Hit> child(const Hit& parent, std::string_view key) {
  if (parent.is_null() || !parent.value->is_object()) return std::nullopt;
  auto it = parent.value->find(std::string(key));
  if (it == parent.value->end()) return std::nullopt;
  return Hit{&*it, pointer_join(parent.pointer, key)};
}

void read_alibi(Normalizing& n, std::optional<Hit> bias_max) {
  AlibiInfo alibi;
  if (auto heads = n.view.find_value({"num_attention_heads", "n_head", "n_heads", "num_heads"}))
    if (auto value = read_integer(*heads, n.problems, "number of attention heads", 1, 65536))
      alibi.num_heads = static_cast<int>(*value);
  if (bias_max)
    if (auto value = read_number(*bias_max, n.problems, "alibi_bias_max"))
      alibi.bias_max = {*value, Provenance::at(bias_max->pointer)};
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
    if (auto v = read_integer(*hit, n.problems, "relative_attention_num_buckets", 2, 1 << 20))
      t5.num_buckets = {static_cast<int>(*v), Provenance::at(hit->pointer)};
  if (auto hit = n.view.find_value({"relative_attention_max_distance"}))
    if (auto v = read_integer(*hit, n.problems, "relative_attention_max_distance", 1, 1 << 30))
      t5.max_distance = {static_cast<int>(*v), Provenance::at(hit->pointer)};
  n.model.t5 = t5;
}

}  // namespace

void read_scheme(Normalizing& n) {
  Model& model = n.model;
  model.scheme = n.family.scheme;
  model.scheme_from = Provenance::by_default(fmt::format("model_type '{}'", model.model_type.value));
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
      model.notes.push_back(fmt::format("position_embedding_type '{}' adds relative-position terms on top of the "
                                        "learned table",
                                        hit->value->get<std::string>()));
  }
  if (type == "chatglm") {
    auto hit = n.view.find_value({"position_encoding_2d"});
    if (hit && hit->value->is_boolean() && hit->value->get<bool>()) {
      model.scheme = PositionScheme::rope_2d;
      model.scheme_from = Provenance::at(hit->pointer);
      model.notes.push_back("ChatGLM-1 2-D rotary positions (position_encoding_2d): two position ids per token, "
                            "defined in remote code; ropelens does not compute them");
    }
  }
}

}  // namespace ropelens::normalize_detail
