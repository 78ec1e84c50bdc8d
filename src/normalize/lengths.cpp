// Declared and original lengths, sliding window and attention chunk.
#include <fmt/format.h>

#include "ropelens/normalize/normalize.hpp"
#include "normalizing.hpp"

namespace ropelens::normalize_detail {
namespace {

std::optional<Field<std::int64_t>> read_length(Normalizing& n, const Hit& hit, std::string_view what) {
  auto value = read_integer(hit, n.issues, what, 1, kMaxLengthTokens);
  if (!value) return std::nullopt;
  return Field<std::int64_t>{*value, Provenance::at(hit.pointer)};
}

// A config class without a length attribute (remote code such as KimiLinearConfig) leaves the length to the engines:
// vLLM's _get_and_verify_max_len also reads these keys (vllm/config/model.py @18ec6629253632af0a384f2ffbb8c6b28af322e7,
// possible_keys), and a model_max_length in the config replaces the minimum over the others.
std::optional<Field<std::int64_t>> read_vllm_only_length(Normalizing& n) {
  if (auto hit = n.view.find_value({"model_max_length"})) return read_length(n, *hit, "model_max_length");
  std::optional<Field<std::int64_t>> shortest;
  for (std::string_view key : {"max_target_positions", "max_seq_length", "seq_len"})
    if (auto hit = n.view.find_value({key}))
      if (auto length = read_length(n, *hit, key); length && (!shortest || length->value < shortest->value))
        shortest = length;
  return shortest;
}

void read_declared_length(Normalizing& n) {
  Model& model = n.model;
  // The first of several spellings, in the order transformers' attribute maps and remote code use them.
  auto hit = n.view.find_value(
      {"max_position_embeddings", "n_positions", "max_sequence_length", "seq_length", "max_seq_len", "n_ctx"});
  if (n.family.dialect == Dialect::chatglm) hit = n.view.find_value({"seq_length", "max_sequence_length"});
  if (hit)
    if (auto length = read_length(n, *hit, hit->key())) {
      model.max_position_embeddings = *length;
      return;
    }
  if (n.family.default_max_positions > 0) {
    model.max_position_embeddings = {
        n.family.default_max_positions,
        Provenance::by_default(fmt::format("transformers {} class default max_position_embeddings {}",
                                           n.family.model_type, n.family.default_max_positions))};
    return;
  }
  if (model.scheme == PositionScheme::alibi || model.scheme == PositionScheme::t5_relative) {
    model.max_position_embeddings = {0, Provenance::by_default("no length key: the scheme has no position table")};
    return;
  }
  if (auto vllm = read_vllm_only_length(n)) {
    model.max_position_embeddings = *vllm;
    return;
  }
  model.max_position_embeddings = {2048, Provenance::by_default("no length key in the config; 2048 assumed, as vLLM "
                                                                "does")};
}

// Every length key, read quietly: the declared length above reports a bad value of the key transformers reads.
void read_length_keys(Normalizing& n) {
  for (std::string_view key : kLengthKeys) {
    auto hit = n.view.find_value({key});
    if (!hit || !hit->value->is_number_integer()) continue;
    const auto tokens = hit->value->get<std::int64_t>();
    if (tokens < 1 || tokens > kMaxLengthTokens) continue;
    n.model.length_keys.push_back({std::string(key), {tokens, Provenance::at(hit->pointer)}});
  }
}

void read_declared_original_length(Normalizing& n) {
  if (auto hit = n.view.find_value({"original_max_position_embeddings"})) {
    n.has_top_original_attribute = true;
    n.model.original_max_position_embeddings = read_length(n, *hit, "original_max_position_embeddings");
    return;
  }
  if (n.family.dialect == Dialect::phi3) {
    n.has_top_original_attribute = true;
    n.model.original_max_position_embeddings = Field<std::int64_t>{
        4096, Provenance::by_default("transformers Phi3Config default original_max_position_embeddings 4096")};
  }
}

void read_sliding_window(Normalizing& n) {
  Model& model = n.model;
  auto hit = n.view.find("sliding_window");
  // MiMo-V2's hub configs also state sliding_window_size, the key vLLM mimo_v2.py passes to its sliding layers.
  if ((!hit || hit->is_null()) && n.family.dialect == Dialect::mimo_v2) hit = n.view.find("sliding_window_size");
  if (hit && !hit->is_null()) {
    if (hit->value->is_boolean()) return;  // some configs spell "no window" as false
    model.sliding_window = read_length(n, *hit, hit->key());
  } else if (!hit && n.family.default_sliding_window > 0) {
    model.sliding_window =
        Field<std::int64_t>{n.family.default_sliding_window,
                            Provenance::by_default(fmt::format("transformers {} class default sliding_window {}",
                                                               n.family.model_type, n.family.default_sliding_window))};
  }
  if (n.family.pattern == LayerPattern::qwen2_max_window && model.sliding_window) {
    auto use = n.view.find_value({"use_sliding_window"});
    bool enabled = use && use->value->is_boolean() && use->value->get<bool>();
    if (!enabled) {
      model.notes.push_back(fmt::format("sliding_window {} is ignored: use_sliding_window is {}",
                                        model.sliding_window->value, use ? "false" : "absent (default false)"));
      model.sliding_window.reset();
    }
  }
}

void read_attention_chunk(Normalizing& n) {
  if (auto hit = n.view.find_value({"attention_chunk_size"})) {
    n.model.attention_chunk_size = read_length(n, *hit, "attention_chunk_size");
  } else if (n.family.dialect == Dialect::llama4) {
    n.model.attention_chunk_size = Field<std::int64_t>{
        8192, Provenance::by_default("transformers Llama4TextConfig default attention_chunk_size 8192")};
  }
}

}  // namespace

void read_lengths(Normalizing& n) {
  read_declared_length(n);
  read_length_keys(n);
  if (n.model.scheme != PositionScheme::rope) return;
  read_declared_original_length(n);
  read_sliding_window(n);
  read_attention_chunk(n);
}

}  // namespace ropelens::normalize_detail
