// Internal: the state shared by the normalizer's readers while one config is being normalized.
#pragma once

#include <optional>
#include <string>

#include "config_view.hpp"
#include "families.hpp"
#include "ropelens/model/model.hpp"

namespace ropelens::normalize_detail {

struct Dims {
  std::optional<Field<int>> hidden_size;
  Field<int> head_dim{0, {}};
  std::optional<Field<int>> global_head_dim;  // Gemma 4 full-attention layers
  Field<double> partial_rotary_factor{1.0, Provenance::by_default("transformers default partial_rotary_factor 1.0")};
  bool partial_from_attribute = false;            // a top-level attribute, which overrides the RoPE dict's
  std::optional<Field<int>> explicit_rotary_dim;  // GPT-J / Phi-1/2 `rotary_dim`
};

struct Normalizing {
  const ConfigView& view;
  const Family& family;
  Model& model;
  Issues issues;
  Dims dims;
  Field<double> top_theta{10000.0, {}};
  bool has_top_original_attribute = false;  // hasattr(config, "original_max_position_embeddings")
};

void read_scheme(Normalizing& n);
void read_dims(Normalizing& n);
void read_lengths(Normalizing& n);
void read_layer_schedule(Normalizing& n);
void read_rope_setups(Normalizing& n);
void read_kv_shape(Normalizing& n);
// Top-level (and text_config) keys that are near misses of a known attribute.
void read_misspelled_keys(Normalizing& n);

// Hybrid models (attention_layers.cpp): which layers attend at all, and whether that attention carries positions.
bool is_known_layer_type(std::string_view type);
bool layer_type_attends(std::string_view type);
void read_hybrid_scheme(Normalizing& n);
// The per-layer types of a hybrid schedule other than layer_types; may correct num_layers (NemotronH).
std::optional<std::vector<std::string>> read_hybrid_schedule(Normalizing& n, int& num_layers);
// Fills Model::layers for a model whose attention has no positions, when a hybrid schedule says which layers attend.
void read_attention_only_schedule(Normalizing& n, int num_layers);

}  // namespace ropelens::normalize_detail
