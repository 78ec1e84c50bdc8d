// Which keys a model's config holds: whether a JSON object is a model's config at all (a repository holds many
// config.json files, of apps, tools and editors, and a scan must pass over them rather than report each as a broken
// model), and which top-level attributes exist, so that a near miss of one can be told from a vendor's own key.
#include <algorithm>
#include <array>
#include <iterator>
#include <span>

#include "config_attributes.hpp"
#include "config_view.hpp"
#include "normalizing.hpp"
#include "ropelens/model/spelling.hpp"
#include "ropelens/normalize/normalize.hpp"

namespace ropelens {

namespace normalize_detail {
namespace {

// Every key the normalizer reads, at the top level or in a nested language-model object.
constexpr std::string_view kReadByRopelens[] = {
    "alibi",
    "alibi_bias_max",
    "attention_chunk_size",
    "attn_config",
    "attn_layer_indices",
    "attn_layer_offset",
    "attn_layer_period",
    "attn_scale",
    "attn_temperature_tuning",
    "attn_type_list",
    "block_configs",
    "cross_attention_layers",
    "compress_ratios",
    "compress_rope_theta",
    "d_model",
    "dtype",
    "floor_scale",
    "full_attention_interval",
    "full_attn_idxs",
    "global_head_dim",
    "head_dim",
    "hidden_size",
    "hybrid_layer_pattern",
    "hybrid_override_pattern",
    "kda_layers",
    "kv_channels",
    "kv_lora_rank",
    "language_config",
    "layer_rope_theta",
    "layer_types",
    "layers_block_type",
    "linear_attn_config",
    "llm_config",
    "max_position_embeddings",
    "max_seq_len",
    "max_sequence_length",
    "max_window_layers",
    "model_type",
    "multi_query",
    "multi_query_attention",
    "multi_query_group_num",
    "n_ctx",
    "n_embd",
    "n_embed",
    "n_head",
    "n_head_kv",
    "n_heads",
    "n_layer",
    "n_layers",
    "n_positions",
    "no_rope_layer_interval",
    "no_rope_layers",
    "num_attention_heads",
    "num_global_key_value_heads",
    "num_heads",
    "num_hidden_layers",
    "num_key_value_heads",
    "num_kv_heads",
    "num_kv_shared_layers",
    "num_layers",
    "original_max_position_embeddings",
    "partial_rotary_factor",
    "position_embedding_type",
    "position_encoding_2d",
    "qk_nope_head_dim",
    "qk_rope_head_dim",
    "relative_attention_max_distance",
    "relative_attention_num_buckets",
    "rope_base",
    "rope_interleave",
    "rope_local_base_freq",
    "rope_parameters",
    "rope_pct",
    "rope_ratio",
    "rope_scaling",
    "rope_theta",
    "rotary_dim",
    "rotary_emb_base",
    "rotary_emb_fraction",
    "rotary_pct",
    "seq_length",
    "sliding_window",
    "sliding_window_pattern",
    "sliding_window_size",
    "swa_head_dim",
    "swa_num_key_value_heads",
    "swa_rope_theta",
    "swa_v_head_dim",
    "text_config",
    "thinker_config",
    "torch_dtype",
    "use_dynamic_ntk",
    "use_mem_rope",
    "use_sliding_window",
    "v_head_dim",
};

// transformers v5 `PreTrainedConfig` (src/transformers/configuration_utils.py
// @008e574391258935f3ecc3035c882e73bbcac419): its fields, the kwargs its __post_init__ pops or keeps, the attributes v4
// configs still serialize, and the sub-configs and loading entries (auto_map, quantization_config) hub configs carry.
constexpr std::string_view kCommonAttributes[] = {
    "_commit_hash",
    "_name_or_path",
    "add_cross_attention",
    "architectures",
    "attn_implementation",
    "audio_config",
    "auto_map",
    "bos_token_id",
    "chunk_size_feed_forward",
    "cross_attention_hidden_size",
    "decoder_start_token_id",
    "eos_token_id",
    "experts_implementation",
    "finetuning_task",
    "id2label",
    "ignore_keys_at_rope_validation",
    "is_decoder",
    "is_encoder_decoder",
    "label2id",
    "mlp_layer_types",
    "name_or_path",
    "num_labels",
    "output_attentions",
    "output_hidden_states",
    "pad_token_id",
    "per_layer_config",
    "prefix",
    "problem_type",
    "pruned_heads",
    "quantization_config",
    "return_dict",
    "sep_token_id",
    "task_specific_params",
    "tf_legacy_loss",
    "tie_encoder_decoder",
    "tie_word_embeddings",
    "tokenizer_class",
    "torchscript",
    "transformers_version",
    "use_bfloat16",
    "use_cache",
    "use_return_dict",
    "vision_config",
    "vocab_size",
};

// Generation parameters: transformers pops them from the config (GenerationConfig._get_default_generation_params);
// older configs still hold them.
constexpr std::string_view kGenerationParameters[] = {
    "bad_words_ids",
    "begin_suppress_tokens",
    "diversity_penalty",
    "do_sample",
    "early_stopping",
    "encoder_no_repeat_ngram_size",
    "exponential_decay_length_penalty",
    "forced_bos_token_id",
    "forced_eos_token_id",
    "length_penalty",
    "max_length",
    "max_new_tokens",
    "min_length",
    "min_new_tokens",
    "no_repeat_ngram_size",
    "num_beam_groups",
    "num_beams",
    "num_return_sequences",
    "output_scores",
    "remove_invalid_values",
    "repetition_penalty",
    "return_dict_in_generate",
    "suppress_tokens",
    "temperature",
    "top_k",
    "top_p",
    "typical_p",
};

// Attributes of the model classes of the families ropelens knows (configuration_llama.py,
// configuration_deepseek_v3.py and configuration_qwen2_moe.py @008e574391258935f3ecc3035c882e73bbcac419, with their
// attribute_map names, and the GPT-2, GPT-NeoX, BERT, T5, BART and Gemma classes) that ropelens does not read.
constexpr std::string_view kModelAttributes[] = {
    "activation_dropout",
    "activation_function",
    "attention_bias",
    "attention_dropout",
    "attention_probs_dropout_prob",
    "attn_logit_softcapping",
    "attn_pdrop",
    "aux_loss_alpha",
    "cache_implementation",
    "classifier_dropout",
    "d_ff",
    "d_kv",
    "decoder_attention_heads",
    "decoder_ffn_dim",
    "decoder_layerdrop",
    "decoder_layers",
    "decoder_sparse_step",
    "dense_act_fn",
    "dropout",
    "dropout_rate",
    "embd_pdrop",
    "encoder_attention_heads",
    "encoder_ffn_dim",
    "encoder_layerdrop",
    "encoder_layers",
    "ep_size",
    "feed_forward_proj",
    "final_logit_softcapping",
    "first_k_dense_replace",
    "hidden_act",
    "hidden_activation",
    "hidden_dropout",
    "hidden_dropout_prob",
    "init_std",
    "initializer_factor",
    "initializer_range",
    "intermediate_size",
    "is_gated_act",
    "layer_norm_eps",
    "layer_norm_epsilon",
    "mlp_bias",
    "mlp_only_layers",
    "moe_intermediate_size",
    "moe_layer_freq",
    "n_group",
    "n_inner",
    "n_routed_experts",
    "n_shared_experts",
    "norm_topk_prob",
    "num_decoder_layers",
    "num_experts",
    "num_experts_per_tok",
    "num_hidden_groups",
    "num_local_experts",
    "num_mtp_layers",
    "num_nextn_predict_layers",
    "output_router_logits",
    "pretraining_tp",
    "q_lora_rank",
    "qk_head_dim",
    "qkv_bias",
    "query_pre_attn_scalar",
    "reorder_and_upcast_attn",
    "resid_pdrop",
    "rms_norm_eps",
    "routed_scaling_factor",
    "router_aux_loss_coef",
    "router_jitter_noise",
    "scale_attn_by_inverse_layer_idx",
    "scale_attn_weights",
    "scale_embedding",
    "scoring_func",
    "seq_aux",
    "shared_expert_intermediate_size",
    "summary_activation",
    "summary_first_dropout",
    "summary_proj_to_labels",
    "summary_type",
    "summary_use_proj",
    "topk_group",
    "topk_method",
    "type_vocab_size",
    "use_bidirectional_attention",
    "use_parallel_residual",
};

// Mamba-2 mixers of the hybrid classes (NemotronHConfig, models/nemotron_h/configuration_nemotron_h.py
// @13923c63d59f73faebae79b2ee3fafc7e3a35201; Bamba, Zamba2 and Falcon-H1 use the same names): `n_groups` is the
// Mamba-2 group count, one edit from the MoE router's `n_group` but a different attribute.
constexpr std::string_view kMambaAttributes[] = {
    "chunk_size",      "conv_kernel",     "mamba_head_dim", "mamba_hidden_act",
    "mamba_num_heads", "mamba_proj_bias", "n_groups",       "ssm_state_size",
};

// The Mamba-2 mixers of GraniteMoeHybridConfig (Granite 4.0-H,
// models/granitemoehybrid/configuration_granitemoehybrid.py
// @008e574391258935f3ecc3035c882e73bbcac419) under their own names: `mamba_n_heads` is one edit from NemotronH's
// `mamba_num_heads`, `mamba_d_head` two from `mamba_head_dim`, and neither is a misspelling. Falcon-H1's
// FalconH1Config uses the same names.
constexpr std::string_view kGraniteHybridAttributes[] = {
    "mamba_chunk_size", "mamba_conv_bias", "mamba_d_conv",   "mamba_d_head",
    "mamba_d_state",    "mamba_expand",    "mamba_n_groups", "mamba_n_heads",
};

// Remote-code spellings in real configs, one edit from a transformers attribute but not a misspelling of it:
// `architecture` (a vendor field beside `architectures`), `emb_pdrop` (Phi-1 remote code), `layernorm_epsilon`
// (ChatGLM), `num_experts_per_token` and `num_shared_experts` (KimiLinearConfig, vLLM
// vllm/transformers_utils/configs/kimi_linear.py @6b06599499a6f9d6f140ae26ff95b3cbd2e7e75c; `num_shared_experts` is
// also Ling's BailingMoeConfig, read by vLLM bailing_moe.py @3a04cf8f14c971435137c3ec572a7803c663673d),
// `o_lora_rank` and `o_groups` (DeepSeek-V4's grouped output projection, vLLM deepseek_v4.py
// @f1b76c19a8f7fc2f2a8ce2918533933128a3b22a; `o_groups` is one edit from Mamba-2's `n_groups`), `num_shared_expert`
// (HunYuan's per-layer list, read by llama.cpp conversion/hunyuan.py @7bca1fd9ca2a681b0182e16f24f832b7be1942af).
constexpr std::string_view kVendorAttributes[] = {
    "architecture",      "emb_pdrop",          "layernorm_epsilon", "num_experts_per_token",
    "num_shared_expert", "num_shared_experts", "o_groups",          "o_lora_rank",
};

// How many edits away a key may be from an attribute to count as its misspelling. Short names sit too close to
// each other (n_head, n_heads, n_embd) for any guess; real typos of longer ones are one or two edits.
std::size_t typo_reach(std::string_view key) {
  if (key.size() <= 4) return 0;
  return key.size() <= 10 ? 1 : 2;
}

// Keys that are nobody's misspelling: private entries written by tools (`_name_or_path`, `_commit_hash`) and special
// tokens, which transformers recognizes by their suffix alone (validate_token_ids).
bool names_its_own_thing(std::string_view key) {
  return key.starts_with('_') || key.ends_with("_token_id") || key.ends_with("_token_index");
}

// Every known attribute once, sorted (the lists above share a few names), and the dictionary of them: both built at
// compile time, so a check of one file spends nothing on them at start-up.
constexpr std::size_t kListedAttributes = std::size(kReadByRopelens) + std::size(kCommonAttributes) +
                                          std::size(kGenerationParameters) + std::size(kModelAttributes) +
                                          std::size(kVendorAttributes) + std::size(kMambaAttributes) +
                                          std::size(kGraniteHybridAttributes);

constexpr std::array<std::string_view, kListedAttributes> sorted_listed_attributes() {
  std::array<std::string_view, kListedAttributes> all{};
  auto out = all.begin();
  for (const auto list :
       {std::span<const std::string_view>(kReadByRopelens), std::span<const std::string_view>(kCommonAttributes),
        std::span<const std::string_view>(kGenerationParameters), std::span<const std::string_view>(kModelAttributes),
        std::span<const std::string_view>(kVendorAttributes), std::span<const std::string_view>(kMambaAttributes),
        std::span<const std::string_view>(kGraniteHybridAttributes)})
    out = std::copy(list.begin(), list.end(), out);
  std::sort(all.begin(), all.end());
  return all;
}

constexpr std::size_t kKnownAttributeCount = [] {
  auto all = sorted_listed_attributes();
  return static_cast<std::size_t>(std::unique(all.begin(), all.end()) - all.begin());
}();

constexpr std::array<std::string_view, kKnownAttributeCount> kKnownAttributes = [] {
  auto all = sorted_listed_attributes();
  static_cast<void>(std::unique(all.begin(), all.end()));
  std::array<std::string_view, kKnownAttributeCount> known{};
  std::copy_n(all.begin(), kKnownAttributeCount, known.begin());
  return known;
}();

constexpr SpellingDictionary<kKnownAttributeCount> kKnownAttributeDictionary(kKnownAttributes);

}  // namespace

bool is_known_config_attribute(std::string_view key) { return kKnownAttributeDictionary.contains(key); }

bool is_read_by_ropelens(std::string_view key) {
  return std::find(std::begin(kReadByRopelens), std::end(kReadByRopelens), key) != std::end(kReadByRopelens);
}

// Near misses of known attributes at the top level and in text_config (`rope_thetta`): transformers keeps such a
// key as a stray attribute and the attribute meant takes its default, so nothing fails and nothing warns.
void read_misspelled_keys(Normalizing& n) {
  for (const auto& scope : n.view.scopes()) {
    if (!scope.object->is_object()) continue;
    for (const auto& [key, value] : scope.object->items()) {
      if (names_its_own_thing(key) || is_known_config_attribute(key)) continue;
      auto meant = kKnownAttributeDictionary.nearest(key, typo_reach(key));
      if (!meant) continue;
      n.issues.add(
          json_pointer_join(scope.pointer, key),
          MisspelledConfigKey{key, std::string(*meant), is_read_by_ropelens(*meant), n.view.find(*meant).has_value()});
    }
  }
}

}  // namespace normalize_detail

const std::vector<std::string>& model_config_keys() {
  static const std::vector<std::string> keys = {
      "model_type",
      "architectures",
      "hidden_size",
      "num_attention_heads",
      "num_hidden_layers",
      "head_dim",
      "rope_theta",
      "rope_scaling",
      "rope_parameters",
      "max_position_embeddings",
      "n_positions",
      "n_ctx",
      "n_embd",
      "n_head",
      "n_layer",
      "seq_length",
      "d_model",
      "num_layers",
      "num_heads",
      "rotary_dim",
      "rotary_pct",
      "partial_rotary_factor",
      "position_embedding_type",
      "sliding_window",
      "layer_types",
      "text_config",
      "llm_config",
      "language_config",
      "thinker_config",
  };
  return keys;
}

bool is_model_config(const nlohmann::json& root) {
  if (!root.is_object()) return false;
  const normalize_detail::ConfigView view(root);
  return std::any_of(view.scopes().begin(), view.scopes().end(), [](const normalize_detail::Scope& scope) {
    return std::any_of(model_config_keys().begin(), model_config_keys().end(),
                       [&](const std::string& key) { return scope.object->contains(key); });
  });
}

}  // namespace ropelens
