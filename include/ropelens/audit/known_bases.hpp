// The base models people fine-tune, with the length each was trained at as its model card states it.
// A fine-tune keeps the base's shape and RoPE; a config with that shape and RoPE that declares a longer length
// without new scaling did not gain the tokens by the edit, so the audit takes the base's length.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ropelens/model/model.hpp"

namespace ropelens {

struct KnownBase {
  std::string_view name;        // "Qwen3-8B"
  std::string_view family;      // "Qwen3"
  std::string_view model_type;  // as config.json states it
  std::string_view gguf_arch;   // general.architecture of its GGUF (llama.cpp's convert_hf_to_gguf.py: "qwen3moe")
  int hidden_size = 0;
  int num_layers = 0;
  int num_attention_heads = 0;
  std::int64_t vocab_size = 0;  // 0: the key leaves it out
  double rope_theta = 0.0;
  RopeType rope_type = RopeType::default_rope;
  double factor = 0.0;        // the scaling factor (0: none)
  std::int64_t declared = 0;  // max_position_embeddings of the released config: the length the audit bounds with
  std::int64_t native = 0;    // the length the card says was trained natively (before any scaling)
  std::string_view card;      // the model card the lengths come from
};

// Every known base, in the order docs/known-bases.md lists them.
std::span<const KnownBase> known_bases();

// The bases the model matches on model_type (a GGUF file: its architecture), hidden size, layers, heads,
// vocabulary and RoPE (type, theta, factor). `_name_or_path`/`base_model` (a GGUF file: general.base_model.0.name,
// else general.name) naming one of them, letters and digits compared, narrows the list to it.
struct BaseMatch {
  std::vector<const KnownBase*> candidates;
  // More than one candidate with different lengths: the audit says so and takes none of them.
  bool ambiguous() const;
  // The names of the candidates ("Llama-3.1-70B or Llama-3.3-70B").
  std::string names() const;
};
BaseMatch match_known_base(const Model& model);
// The same match against another table (tests give one with bases whose lengths differ).
BaseMatch match_known_base(const Model& model, std::span<const KnownBase> bases);

// The Markdown table docs/known-bases.md holds (a test keeps the file equal to it).
std::string known_bases_markdown();

}  // namespace ropelens
