// The inference engines ropelens models and the versions of each whose behaviour differs. Only the engine folders
// (src/engines/<engine>/) and this layer name a particular engine or version; everything else holds an Engine or
// an EngineVersion as an opaque value and asks the registry (engines/registry.hpp) about it.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ropelens {

enum class Engine { transformers, vllm, sglang, llama_cpp, mlx_lm, trtllm, exllamav3 };

// Every engine version whose behaviour differs somewhere (each engine's version table, engines/versions.hpp, says
// which releases have it).
enum class EngineVersion {
  transformers_v5,
  transformers_4_5x,   // yarn factor := max/original when original is present (#38224, fixed by #40320)
  transformers_4_4x,   // yarn correction range on max_position_embeddings (@ef468064)
  vllm_current,        // ≥ PR #56446 (YaRN aligned with transformers; max_model_len never re-scaled for YaRN)
  vllm_legacy,         // < PR #41277 (and so < PR #56446): releases up to 0.21
  vllm_dynamic_41277,  // PR #41277 … < PR #56446: the dynamic-NTK formula changed, YaRN still legacy (0.22–0.29)
  sglang,
  sglang_ktransformers,  // SGLang as KTransformers' `kt run` starts it (its own --mem-fraction-static,
                         // --max-total-tokens)
  llama_cpp,
  mlx_lm,               // mlx_lm.server and mlx_lm.generate (v0.32.0)
  mlx_lm_lmstudio,      // LM Studio's mlx-engine: MLX-LM with the context capped at max_position_embeddings
  trtllm_current,       // ≥ PR #12829 (transformers 5.3: rope_scaling reads rope_parameters)
  trtllm_before_12829,  // PR #10636 … < #12829: rope_theta merged from rope_parameters, scaling from rope_scaling only
  trtllm_before_10636,  // < PR #10636: rope_theta and rope_scaling only
  exllamav3,            // ExLlamaV3 1.4.1, TabbyAPI's default max_seq_len
};

// In the order every output lists them (the registry's).
const std::vector<Engine>& all_engines();
std::string_view to_string(Engine engine);     // as --engine takes it and JSON prints it: "llama.cpp"
std::string_view display_name(Engine engine);  // as text prints it: "vLLM"
// A name or an alias (a version alias names its engine); nullopt for anything else.
std::optional<Engine> parse_engine(std::string_view name);
// The version key a version alias pins ("lmstudio" → "lmstudio" of mlx-lm); nullopt for any other name.
std::optional<std::string_view> version_alias_key(std::string_view name);
// "all" or one engine name (as --engine takes it); throws std::invalid_argument naming the choices.
std::vector<Engine> parse_engine_selection(std::string_view text);
// The values --engine takes, "all" last.
std::vector<std::string_view> engine_choices();
// "transformers, vllm, sglang, llama.cpp"
std::string engine_names();

Engine engine_of(EngineVersion version);
std::string_view label_of(EngineVersion version);
// How `--stack ENGINE@VERSION` names a modelled version: "v5", "4.5x", "main", "before-56446", …
std::string_view version_key(EngineVersion version);
// The version each engine runs by default: the newest release placed (transformers v5, vLLM 0.22–0.29, SGLang,
// llama.cpp); an unreleased change on a main branch only when pinned.
bool is_current(EngineVersion version);
// An engine's versions in the order views list them, the current one first.
const std::vector<EngineVersion>& versions_of(Engine engine);

}  // namespace ropelens
