// Internal: what each model_type's config class adds to a config.json that omits its defaults.
#pragma once

#include <cstdint>
#include <string_view>

#include "ropelens/model/model.hpp"

namespace ropelens::normalize_detail {

// Which layers attend within a window when the config has no explicit layer_types.
enum class LayerPattern {
  all_global,
  all_sliding_when_window,  // Mistral, Mixtral, Phi-3: every layer uses sliding_window when it is set
  alternate_sliding_first,  // Gemma 2, gpt-oss: (i+1) % 2 -> sliding
  gemma3_pattern,           // (i+1) % sliding_window_pattern -> sliding
  qwen2_max_window,         // use_sliding_window and i >= max_window_layers -> sliding
  llama4_nope,              // no_rope_layers: RoPE layers chunked, NoPE layers global
};

// Model-specific ways a config maps onto the RoPE model.
enum class Dialect { standard, gemma3, deepseek, chatglm, qwen1, gptj, gpt_oss, llama4, phi3, qwen_vl, non_rope };

struct Family {
  std::string_view model_type;
  bool transformers_native = true;
  double default_theta = 10000.0;
  std::int64_t default_max_positions = 0;  // 0: the class has no default worth assuming
  int default_head_dim = 0;                // 0: hidden_size / num_attention_heads
  double default_partial_rotary = 0.0;     // 0: no partial rotary default (1.0)
  std::int64_t default_sliding_window = 0;
  LayerPattern pattern = LayerPattern::all_global;
  Pairing pairing = Pairing::rotate_half;
  Dialect dialect = Dialect::standard;
  PositionScheme scheme = PositionScheme::rope;
};

// The family for a model_type; unknown types get a generic, non-native Llama-like family.
const Family& family_of(std::string_view model_type);
bool is_known_family(std::string_view model_type);

}  // namespace ropelens::normalize_detail
