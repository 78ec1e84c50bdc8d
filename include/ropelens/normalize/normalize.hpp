// Config dialects in, one Model out. What cannot be taken as written is collected in Model::issues, never thrown.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "ropelens/input/gguf.hpp"
#include "ropelens/input/input.hpp"
#include "ropelens/model/model.hpp"

namespace ropelens {

Model normalize(const Document& document);

// A config.json is a model's config when it holds any of these keys (at the top level or in a nested
// language-model object such as text_config); otherwise it belongs to some other program.
const std::vector<std::string>& model_config_keys();
bool is_model_config(const nlohmann::json& root);
Model normalize_json(const nlohmann::json& root, const std::string& source);

// Maps llama.cpp's keys (with the loader's defaults) into the Model, keeping what the file states about scaling
// in Model::gguf for the rules that check its keys against each other. Throws InputError only when the file
// cannot describe a RoPE model at all: no general.architecture, or a key llama.cpp requires (context_length,
// block_count, the head size) missing or unusable.
Model model_from_gguf(const GgufFile& file);
// How a Model's provenance names a GGUF key or tensor: "gguf:llama.rope.freq_base".
std::string gguf_pointer(std::string_view key);

// Limits beyond which a value is reported as impossible rather than used (no huge allocations).
constexpr int kMaxLayers = 100'000;
constexpr int kMaxHeadDim = 2'048;
constexpr std::int64_t kMaxLengthTokens = 1'000'000'000'000LL;

}  // namespace ropelens
