// Internal: what each model_type's config class adds to a config.json that omits its defaults.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "config_view.hpp"
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
  exaone4_pattern,  // Exaone4Config: (i+1) % sliding_window_pattern (default 4) -> sliding, when a window is set
  olmo3_pattern,    // Olmo3Config: (i+1) % 4 -> sliding
  deepseek_v4_compression,  // compress_ratios: 0 sliding (plain RoPE), 4 and 128 compressed (YaRN on
                            // compress_rope_theta)
  mimo_v2_pattern,          // MiMoV2FlashConfig: full at layer 0 and every 6th, sliding elsewhere
  granite_swa_pattern,      // GraniteSWAConfig: full when i % 4 == 0, sliding elsewhere
  muse_glimmer_pattern,     // MuseGlimmerTextConfig: full (and NoPE) when (n - 1 - i) % 4 == 0, sliding elsewhere
};

// Model-specific ways a config maps onto the RoPE model.
enum class Dialect {
  standard,
  gemma3,
  deepseek,
  chatglm,
  qwen1,
  gptj,
  gpt_oss,
  llama4,
  phi3,
  qwen_vl,
  exaone4,     // global NoPE: with a sliding window, only the sliding layers rotate (Exaone4Attention)
  olmo3,       // the sliding layers rotate with default RoPE, only the full layers take the scaling (Olmo3Model)
  mllama,      // cross_attention_layers take no position embeddings (MllamaCrossAttentionDecoderLayer)
  ministral3,  // rope_parameters.llama_4_scaling_beta scales the queries by position (Ministral3Attention)
  mimo_v2,     // the sliding layers rotate on swa_rope_theta with their own heads (swa_* keys, hybrid_layer_pattern)
  non_rope
};

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

// What decided a config's semantics, in the order they are tried.
enum class FamilyBasis {
  model_type,     // a model_type ropelens knows
  architectures,  // architectures[i], the class vLLM's registry and SGLang dispatch on
  auto_map,       // auto_map.AutoModelForCausalLM, the remote-code class transformers loads
  key_signature,  // kv_lora_rank with qk_rope_head_dim: DeepSeek's multi-head latent attention
  best_effort,    // nothing known: Llama semantics
};

struct ResolvedFamily {
  const Family* family = nullptr;
  FamilyBasis basis = FamilyBasis::best_effort;
  std::string evidence;  // the class name or keys that decided ("" for model_type and best effort)
  std::string pointer;   // where the evidence is written
};

// The family whose semantics a config is read with: its model_type when known, else the architecture class,
// else the remote-code class, else an unambiguous key signature, else the generic Llama-like family.
ResolvedFamily resolve_family(const ConfigView& view, std::string_view model_type);

}  // namespace ropelens::normalize_detail
