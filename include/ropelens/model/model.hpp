// The normalized model: what one config says about positions, whatever its dialect.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ropelens/model/config_issues.hpp"

namespace ropelens {

enum class Origin { config, defaulted, derived };

// Where a resolved value came from: a JSON pointer into the config, a default (and whose), or a formula.
struct Provenance {
  Origin origin = Origin::defaulted;
  std::string pointer;  // config: the key read; derived: the main key it was derived from (may be empty)
  std::string note;     // defaulted: whose default; derived: the formula

  static Provenance at(std::string pointer);
  static Provenance by_default(std::string note);
  static Provenance derived(std::string formula, std::string pointer = {});
  std::string describe() const;
  std::string key() const;  // the key the pointer ends at ("" when there is none)
};

template <class T> struct Field {
  T value{};
  Provenance from;
};

enum class RopeType { default_rope, linear, dynamic, yarn, longrope, llama3, proportional };
std::string_view to_string(RopeType type);
std::optional<RopeType> parse_rope_type(std::string_view name);

enum class Pairing { rotate_half, interleaved };
std::string_view to_string(Pairing pairing);

enum class PositionScheme { rope, alibi, learned_absolute, sinusoidal, t5_relative, rope_2d, none };
std::string_view to_string(PositionScheme scheme);

enum class AttentionKind { global, sliding, chunked };
std::string_view to_string(AttentionKind kind);

struct YarnParams {
  Field<double> beta_fast{32.0, Provenance::by_default("transformers default beta_fast 32")};
  Field<double> beta_slow{1.0, Provenance::by_default("transformers default beta_slow 1")};
  std::optional<Field<double>> mscale;
  std::optional<Field<double>> mscale_all_dim;
  std::optional<Field<double>> attention_factor;
  Field<bool> truncate{true, Provenance::by_default("transformers default truncate true")};
};

struct LongropeParams {
  Field<std::vector<double>> short_factor;
  Field<std::vector<double>> long_factor;
  std::optional<Field<double>> attention_factor;
};

struct Llama3Params {
  Field<double> low_freq_factor{1.0, {}};
  Field<double> high_freq_factor{4.0, {}};
};

// One RoPE configuration shared by a set of layers of one attention kind.
struct RopeSetup {
  std::string name;     // "all", or a layer type such as "full_attention"
  std::string pointer;  // the RoPE dict this setup was read from ("" when the config has none)
  std::vector<int> layers;
  AttentionKind attention = AttentionKind::global;
  std::optional<Field<std::int64_t>> window_tokens;  // sliding window or attention chunk

  Field<std::string> rope_type_name;  // as spelled after legacy renames
  RopeType type = RopeType::default_rope;
  Field<double> rope_theta;
  Field<int> head_dim;
  Field<double> partial_rotary_factor{1.0, Provenance::by_default("transformers default partial_rotary_factor 1.0")};
  int rotary_dim = 0;  // int(head_dim * partial_rotary_factor), the dims that rotate
  std::optional<Field<double>> factor;
  Field<std::int64_t> max_position_embeddings;
  std::optional<Field<std::int64_t>> original_max_position_embeddings;

  YarnParams yarn;
  LongropeParams longrope;
  Llama3Params llama3;

  // Per-pair divisors applied after the method, whatever it is: a GGUF's rope_freqs tensor, which llama.cpp divides
  // by under a scaling type it also applies (inv_freq_i = method's inv_freq_i / divisor_i).
  std::optional<Field<std::vector<double>>> frequency_divisors;

  std::vector<int> mrope_section;
  bool mrope_interleaved = false;

  std::vector<std::string> dict_keys;  // keys present in the RoPE dict, for unknown-key checks
  // YaRN's truncate as a per-layer-type dict states it: transformers reads only the top level, vLLM and SGLang
  // pass the layer's own dict to their rotary embedding, which reads it.
  std::optional<Field<bool>> layer_truncate;
};

struct Layer {
  int index = 0;
  std::string layer_type;  // full_attention, sliding_attention, chunked_attention, … or a mixer that does not attend
  // False for layers that are not attention at all (linear attention such as Gated DeltaNet, Mamba, convolution,
  // MLP-only): they have no positions, no rotary pairs and no KV cache.
  bool attends = true;
  AttentionKind attention = AttentionKind::global;
  std::optional<std::int64_t> window_tokens;
  bool uses_rope = true;
  int setup = -1;  // index into Model::setups, -1 for NoPE layers
};

struct AlibiInfo {
  int num_heads = 0;
  Field<double> bias_max{8.0, Provenance::by_default("ALiBi default alibi_bias_max 8")};
};

// Caps the bucket count (real T5: 32) so that the float32 log path stays exact to the bucket and a table of
// every bucket stays small.
constexpr int kMaxT5Buckets = 4096;

struct T5Buckets {
  Field<int> num_buckets;
  Field<int> max_distance;
  bool bidirectional = true;  // the encoder's buckets; decoders use the causal half
};

struct NopeTemperature {
  bool enabled = false;
  Provenance enabled_from;  // where attn_temperature_tuning was read, or whose default
  Field<double> floor_scale;
  Field<double> attn_scale;
};

// A per-pair RoPE factor tensor of a GGUF file, as stored.
struct GgufFactorTensor {
  std::string name;     // rope_freqs.weight, rope_factors_long.weight or rope_factors_short.weight
  std::string pointer;  // gguf:<name>
  std::vector<float> values;
};

// What a GGUF file states about RoPE scaling, as llama.cpp's loader reads it, for the rules that check the file's
// keys against each other. Its lengths are Model::max_position_embeddings (context_length) and
// Model::original_max_position_embeddings (rope.scaling.original_context_length).
struct GgufFacts {
  Field<std::string> scaling_type;
  std::optional<Field<double>> scaling_factor;   // > 0 only: llama.cpp reads 0 as no factor
  std::optional<Field<double>> attn_factor;      // rope.scaling.attn_factor, as stated
  std::optional<Field<double>> yarn_ext_factor;  // rope.scaling.yarn_ext_factor, as stated (llama.cpp default 1)
  std::vector<GgufFactorTensor> factor_tensors;

  // llama.cpp divides frequencies by the factor for linear, yarn and longrope (freq_scale = 1 / factor).
  bool factor_applies() const;
  // Something in the file scales RoPE: a factor tensor, or an applied factor above 1.
  bool extends() const;
  const GgufFactorTensor* factor_tensor(std::string_view name) const;
};

// What the attention layers cache per token, for KV-cache sizes (kv_cache.hpp).
struct KvShape {
  std::optional<Field<int>> num_attention_heads;
  std::optional<Field<int>> num_kv_heads;         // num_key_value_heads and its spellings; absent: multi-head
  std::optional<Field<int>> head_dim;             // K width of one head (MLA: qk_nope_head_dim + qk_rope_head_dim)
  std::optional<Field<int>> v_head_dim;           // V width when it differs from K's
  std::optional<Field<int>> global_num_kv_heads;  // full-attention layers with their own heads (Gemma 4)
  std::optional<Field<int>> global_head_dim;
  std::optional<Field<int>> sliding_num_kv_heads;  // sliding-window layers with their own heads (MiMo-V2 swa_*)
  std::optional<Field<int>> sliding_head_dim;
  std::optional<Field<int>> sliding_v_head_dim;
  std::optional<Field<int>> kv_lora_rank;  // MLA: the latent each layer caches beside the rotary key part
  std::optional<Field<int>> qk_rope_head_dim;
  std::optional<Field<int>> num_kv_shared_layers;  // the last N layers reuse earlier layers' KV (Gemma 3n)
  std::optional<Field<std::string>> dtype;         // torch_dtype or dtype as written, or an engine's default
};

// A model named by id instead of a path, and the local cache entry it resolved to.
struct ModelReference {
  std::string id;        // "Qwen/Qwen3-8B" or "ollama:llama3.2:latest"
  std::string revision;  // as asked: a branch, tag or commit (Hugging Face) or the tag (Ollama)
  std::string resolved;  // the commit (Hugging Face) or the blob digest (Ollama)
  std::string path;      // the file read
  std::string cache;     // the cache folder it was found in
};

// One tensor of a safetensors checkpoint as its header states it, for the rules that check it against the config.
struct CheckpointTensor {
  std::string name;
  std::string dtype;
  std::vector<std::uint64_t> shape;
  std::string file;            // the safetensors file that holds it
  std::vector<double> values;  // read only for a stored rotary inv_freq buffer; else empty
};

// The weights beside a config, read from safetensors headers (one model.safetensors, or every shard of an index).
struct Checkpoint {
  std::vector<std::string> files;
  std::vector<CheckpointTensor> tensors;  // sorted by name
  std::uint64_t bytes = 0;                // storage shared by several names (tied embeddings) counted once
  std::uint64_t parameters = 0;
  bool in_memory = false;  // a loaded module's buffers (ropelens.verify_rotary), not files
  const CheckpointTensor* find(std::string_view name) const;
};

// One length key as the config states it (max_position_embeddings, seq_length, model_max_length, ...).
// Engines choose among them differently, so normalize keeps every one with where it was read.
struct LengthKey {
  std::string key;
  Field<std::int64_t> tokens;
};

struct Model {
  std::string source;  // shown to users: the path, or "id@revision" for a model named by id
  std::optional<ModelReference> reference;
  // A file read at a git revision ("HEAD:m/model.gguf"): where it sits in the work tree, as shown, for a command
  // that edits the file.
  std::optional<std::string> work_tree_file;
  // The file a command that edits it names: the work-tree file of a revision's blob, the file a model id resolved
  // to, else the path shown.
  const std::string& file_to_edit() const {
    if (work_tree_file) return *work_tree_file;
    return reference ? reference->path : source;
  }
  Field<std::string> model_type;
  std::string text_pointer;  // "" or the nested language-model object, e.g. "/text_config"
  PositionScheme scheme = PositionScheme::rope;
  Provenance scheme_from;
  bool transformers_native = true;
  // The model_type whose class semantics normalize read the config with: model_type itself, or the one the
  // architectures or auto_map class names when model_type is not known ("" for a best-effort reading). Engines
  // dispatch on the class, so their views key on this, not on model_type.
  std::string read_as;
  Field<Pairing> pairing{Pairing::rotate_half, {}};

  Field<int> num_layers;
  std::optional<Field<int>> num_attention_heads;
  Field<std::int64_t> max_position_embeddings;
  std::optional<Field<std::int64_t>> original_max_position_embeddings;  // top-level (Phi-3 style) or the RoPE dict's
  std::optional<Field<std::int64_t>> sliding_window;
  std::optional<Field<std::int64_t>> attention_chunk_size;
  std::vector<LengthKey> length_keys;  // every length key present, in the order of kLengthKeys

  std::vector<Layer> layers;
  std::vector<RopeSetup> setups;
  // Where the schedule of attending layers was read, for models that interleave attention with other mixers.
  std::optional<Provenance> hybrid_schedule_from;

  std::optional<AlibiInfo> alibi;
  std::optional<T5Buckets> t5;
  std::optional<NopeTemperature> nope_temperature;
  std::optional<Field<int>> qk_nope_head_dim;  // MLA: the part of each head that carries no position
  KvShape kv;
  std::optional<Field<std::uint64_t>> weights_bytes;  // the weights' size: safetensors headers or index, GGUF tensors
  std::optional<Field<std::uint64_t>> weights_parameters;  // their parameter count, when the headers were read
  std::optional<Checkpoint> checkpoint;                    // the safetensors headers beside the config
  std::optional<Field<std::int64_t>> vocab_size;           // as the config states it, for checkpoint checks
  std::optional<Field<int>> hidden_size;                   // as the config states it, to match a known base
  std::optional<Field<std::string>> name_or_path;          // _name_or_path or base_model, to match a known base

  std::optional<GgufFacts> gguf;  // set for models read from a GGUF file

  std::vector<std::string> notes;
  std::vector<ConfigIssue> issues;  // what the config holds but normalize could not take as written
  // The keys the language-model config states (its own and the enclosing object's), sorted: engine model code
  // reads some attributes without a default, so whether a key is there decides whether the engine loads.
  std::vector<std::string> config_keys;
  // Keys beside the per-layer-type dicts of a nested rope_parameters (Laguna-XS.2's original_max_position_embeddings):
  // transformers never reads them; vLLM's subset test then calls the dict flat.
  std::vector<std::string> rope_stray_keys;

  std::vector<int> nope_layers() const;       // layers that attend without RoPE
  std::vector<int> attention_layers() const;  // layers that attend (all of them when no schedule was read)
  // Multi-head latent attention (DeepSeek-V2/V3 and kin): part of each head carries no position.
  bool uses_mla() const { return qk_nope_head_dim.has_value(); }
  std::string schedule_summary() const;
  const LengthKey* length_key(std::string_view key) const;  // nullptr when the config does not state it
  bool states_key(std::string_view key) const;              // the key is in config_keys
  // The length the config trains and serves at: max_position_embeddings, or a length key that states less
  // (vLLM serves the minimum; Qwen-1's seq_length is its training length). Its provenance names the key.
  Field<std::int64_t> declared_length() const;
};

// Every length key normalize records, as transformers, vLLM, SGLang and remote code spell them.
inline constexpr std::string_view kLengthKeys[] = {
    "max_position_embeddings", "n_positions",         "max_seq_len",    "seq_length", "model_max_length",
    "max_target_positions",    "max_sequence_length", "max_seq_length", "seq_len",    "n_ctx"};

}  // namespace ropelens
