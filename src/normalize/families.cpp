#include "families.hpp"

#include <array>
#include <optional>
#include <utility>

#include "ropelens/model/text.hpp"

namespace ropelens::normalize_detail {
namespace {

using LP = LayerPattern;
using D = Dialect;
using PS = PositionScheme;
constexpr auto kHalf = Pairing::rotate_half;
constexpr auto kInterleaved = Pairing::interleaved;

// Defaults from transformers' config classes (transformers models/*/configuration_*.py) and the remote-code models' own
// code.
constexpr Family kFamilies[] = {
    // model_type, native, theta, max_pos, head_dim, partial, sliding_window, pattern, pairing, dialect, scheme
    {"llama", true, 1e4, 2048, 0, 0, 0, LP::all_global, kHalf, D::standard, PS::rope},
    {"llava", true, 1e4, 4096, 0, 0, 0, LP::all_global, kHalf, D::standard, PS::rope},
    {"mistral", true, 1e4, 131072, 0, 0, 4096, LP::all_sliding_when_window, kHalf, D::standard, PS::rope},
    {"mixtral", true, 1e6, 131072, 0, 0, 0, LP::all_sliding_when_window, kHalf, D::standard, PS::rope},
    {"ministral", true, 1e4, 131072, 0, 0, 4096, LP::all_sliding_when_window, kHalf, D::standard, PS::rope},
    {"qwen2", true, 1e4, 32768, 0, 0, 4096, LP::qwen2_max_window, kHalf, D::standard, PS::rope},
    {"qwen2_moe", true, 1e4, 32768, 0, 0, 4096, LP::qwen2_max_window, kHalf, D::standard, PS::rope},
    {"qwen3", true, 1e4, 32768, 128, 0, 4096, LP::qwen2_max_window, kHalf, D::standard, PS::rope},
    {"qwen3_moe", true, 1e4, 32768, 128, 0, 4096, LP::qwen2_max_window, kHalf, D::standard, PS::rope},
    {"qwen2_vl", true, 1e6, 32768, 0, 0, 4096, LP::qwen2_max_window, kHalf, D::qwen_vl, PS::rope},
    {"qwen2_5_vl", true, 1e6, 32768, 0, 0, 4096, LP::qwen2_max_window, kHalf, D::qwen_vl, PS::rope},
    {"qwen3_vl_text", true, 5e6, 128000, 128, 0, 0, LP::all_global, kHalf, D::qwen_vl, PS::rope},
    {"qwen3_vl", true, 5e6, 128000, 128, 0, 0, LP::all_global, kHalf, D::qwen_vl, PS::rope},
    // Qwen3VLMoeTextConfig: default_theta 5e5, head_dim hidden_size // num_attention_heads; the M-RoPE of qwen3_vl.
    {"qwen3_vl_moe_text", true, 5e5, 128000, 0, 0, 0, LP::all_global, kHalf, D::qwen_vl, PS::rope},
    {"qwen3_vl_moe", true, 5e5, 128000, 0, 0, 0, LP::all_global, kHalf, D::qwen_vl, PS::rope},
    {"gemma", true, 1e4, 8192, 256, 0, 0, LP::all_global, kHalf, D::standard, PS::rope},
    {"gemma2", true, 1e4, 8192, 256, 0, 4096, LP::alternate_sliding_first, kHalf, D::standard, PS::rope},
    {"gemma3_text", true, 1e6, 131072, 256, 0, 4096, LP::gemma3_pattern, kHalf, D::gemma3, PS::rope},
    {"gemma4_text", true, 1e6, 131072, 256, 0, 512, LP::gemma3_pattern, kHalf, D::gemma3, PS::rope},
    {"llama4_text", true, 5e5, 131072, 128, 0, 0, LP::llama4_nope, kInterleaved, D::llama4, PS::rope},
    {"gpt_oss", true, 150000, 131072, 64, 0, 128, LP::alternate_sliding_first, kHalf, D::gpt_oss, PS::rope},
    {"deepseek_v2", true, 1e4, 2048, 0, 0, 0, LP::all_global, kInterleaved, D::deepseek, PS::rope},
    {"deepseek_v3", true, 1e4, 4096, 0, 0, 0, LP::all_global, kInterleaved, D::deepseek, PS::rope},
    {"deepseek_v32", true, 1e4, 0, 0, 0, 0, LP::all_global, kInterleaved, D::deepseek, PS::rope},
    // DeepseekV4Config (models/deepseek_v4/configuration_deepseek_v4.py @b5b741e52e24b1c394ae4a0b13df86846284a1d3):
    // sliding_window 128 in every layer, layer types from compress_ratios, two RoPE setups (rope_setups.cpp).
    {"deepseek_v4", true, 1e4, 1048576, 0, 0, 128, LP::deepseek_v4_compression, kInterleaved, D::deepseek, PS::rope},
    {"glm_moe_dsa", true, 1e4, 202752, 0, 0, 0, LP::all_global, kInterleaved, D::deepseek, PS::rope},
    {"minicpm3", false, 1e4, 0, 0, 0, 0, LP::all_global, kHalf, D::deepseek, PS::rope},
    // KimiLinearConfig (models/kimi_linear/configuration_kimi_linear.py): in transformers since v5.
    {"kimi_linear", true, 1e4, 0, 0, 0, 0, LP::all_global, kInterleaved, D::deepseek, PS::rope},
    {"glm4_moe", true, 1e4, 131072, 128, 0.5, 0, LP::all_global, kHalf, D::standard, PS::rope},
    // Glm4Config (GLM-4-0414): partial_rotary_factor 0.5, head_dim 128; apply_rotary_pos_emb interleaves the rotated
    // half (cos[..., : d // 2].repeat_interleave(2)), as vLLM glm4.py's is_neox_style=False does.
    {"glm4", true, 1e4, 32768, 128, 0.5, 0, LP::all_global, kInterleaved, D::standard, PS::rope},
    {"glm4v_text", true, 1e4, 32768, 0, 0.5, 0, LP::all_global, kInterleaved, D::qwen_vl, PS::rope},
    {"glm4v", true, 1e4, 32768, 0, 0.5, 0, LP::all_global, kInterleaved, D::qwen_vl, PS::rope},
    {"minimax_m2", true, 1e4, 0, 0, 0, 0, LP::all_global, kHalf, D::standard, PS::rope},
    // MiniMaxM3VLConfig and MiniMaxM3VLTextConfig (models/minimax_m3_vl/configuration_minimax_m3_vl.py
    // @01a05aad6d830cacea098be78be92b0e0df6b2f0): in-library since 2026; the text config is MiniMaxM2Config's
    // (rotary_dim -> partial_rotary_factor, default 64 of head_dim 128, max_position_embeddings 524288).
    {"minimax_m3_vl_text", true, 1e4, 524288, 128, 0, 0, LP::all_global, kHalf, D::standard, PS::rope},
    {"minimax_m3_vl", true, 1e4, 524288, 128, 0, 0, LP::all_global, kHalf, D::standard, PS::rope},
    // MiniMax-M3's text-only remote code, served by SGLang models/minimax_m3.py (@8905cbd4: rotary_dim of head_dim,
    // get_rope's default rotate-half, rope_theta via get_rope_config).
    {"minimax_m3", false, 1e4, 0, 0, 0, 0, LP::all_global, kHalf, D::standard, PS::rope},
    {"smollm3", true, 2e6, 32768, 0, 0, 0, LP::all_global, kHalf, D::standard, PS::rope},
    {"phi3", true, 1e4, 4096, 0, 1.0, 0, LP::all_sliding_when_window, kHalf, D::phi3, PS::rope},
    {"phimoe", true, 1e6, 131072, 0, 0, 0, LP::all_sliding_when_window, kHalf, D::phi3, PS::rope},
    {"phi", true, 1e4, 2048, 0, 0.5, 0, LP::all_global, kHalf, D::standard, PS::rope},
    {"gpt_neox", true, 1e4, 2048, 0, 0.25, 0, LP::all_global, kHalf, D::standard, PS::rope},
    {"persimmon", true, 25000, 16384, 0, 0.5, 0, LP::all_global, kHalf, D::standard, PS::rope},
    {"stablelm", true, 1e4, 4096, 0, 0.25, 0, LP::all_global, kHalf, D::standard, PS::rope},
    {"falcon", true, 1e4, 2048, 0, 0, 0, LP::all_global, kHalf, D::standard, PS::rope},
    {"gptj", true, 1e4, 2048, 0, 0, 0, LP::all_global, kInterleaved, D::gptj, PS::rope},
    {"granite", true, 1e4, 2048, 0, 0, 0, LP::all_global, kHalf, D::standard, PS::rope},
    {"granitemoe", true, 1e4, 2048, 0, 0, 0, LP::all_global, kHalf, D::standard, PS::rope},
    // GraniteSWAConfig and GraniteMoeSWAConfig (models/granite_swa, models/granitemoe_swa): full attention where
    // i % 4 == 0, a 128-token window elsewhere, and layer_rope_theta, one base per layer (0: NoPE).
    {"granite_swa", true, 1e4, 8192, 0, 0, 128, LP::granite_swa_pattern, kHalf, D::standard, PS::rope},
    {"granitemoe_swa", true, 1e4, 0, 0, 0, 128, LP::granite_swa_pattern, kHalf, D::standard, PS::rope},
    // MuseGlimmerTextConfig (models/muse_glimmer/configuration_muse_glimmer.py
    // @38e862ff3fa29acf37e320143577efb3c079f39b): full attention every 4th layer counted back from the last, a
    // 2048-token window elsewhere, and layer_rope_theta 0 (NoPE) on the full layers when the config omits it.
    {"muse_glimmer_text", true, 1e4, 131072, 128, 0, 2048, LP::muse_glimmer_pattern, kHalf, D::standard, PS::rope},
    {"muse_glimmer", true, 1e4, 131072, 128, 0, 2048, LP::muse_glimmer_pattern, kHalf, D::standard, PS::rope},
    {"starcoder2", true, 1e4, 4096, 0, 0, 0, LP::all_sliding_when_window, kHalf, D::standard, PS::rope},
    {"cohere", true, 1e4, 8192, 0, 0, 0, LP::all_global, kInterleaved, D::standard, PS::rope},
    // ERNIE 4.5: apply_rotary_pos_emb pairs x[..., 0::2] with x[..., 1::2] (modeling_ernie4_5.py).
    {"ernie4_5", true, 5e5, 131072, 128, 0, 0, LP::all_global, kInterleaved, D::standard, PS::rope},
    {"ernie4_5_moe", true, 5e5, 131072, 0, 0, 0, LP::all_global, kInterleaved, D::standard, PS::rope},
    {"olmo", true, 1e4, 2048, 0, 0, 0, LP::all_global, kHalf, D::standard, PS::rope},
    {"olmo2", true, 1e4, 2048, 0, 0, 0, LP::all_global, kHalf, D::standard, PS::rope},
    {"olmo3", true, 5e5, 2048, 0, 0, 4096, LP::olmo3_pattern, kHalf, D::olmo3, PS::rope},
    {"exaone4", true, 1e4, 2048, 0, 0, 4096, LP::exaone4_pattern, kHalf, D::exaone4, PS::rope},
    {"exaone4_5_text", true, 1e4, 2048, 0, 0, 4096, LP::exaone4_pattern, kHalf, D::exaone4, PS::rope},
    {"mllama_text_model", true, 5e5, 131072, 0, 0, 0, LP::all_global, kHalf, D::mllama, PS::rope},
    {"ministral3", true, 1e6, 262144, 128, 0, 0, LP::all_sliding_when_window, kHalf, D::ministral3, PS::rope},
    // MiMoV2FlashConfig (models/mimo_v2_flash/modular_mimo_v2_flash.py): full attention at layer 0 and every 6th,
    // a 128-token window elsewhere; full layers rotate on 5e6, sliding layers on 1e4, partial_rotary_factor 0.334.
    {"mimo_v2_flash", true, 5e6, 262144, 192, 0.334, 128, LP::mimo_v2_pattern, kHalf, D::mimo_v2, PS::rope},
    // MiMo-V2.5/2.6 remote code, served by vLLM mimo_v2.py (MiMoV2ForCausalLM): rope_theta default 1e6, the swa_*
    // keys as MiMo-V2-Flash's.
    {"mimo_v2", false, 1e6, 32768, 0, 0, 0, LP::mimo_v2_pattern, kHalf, D::mimo_v2, PS::rope},
    // LagunaConfig (models/laguna/configuration_laguna.py): rope_parameters per layer type, each with its own
    // partial_rotary_factor (defaults: full 5e5 × 0.5, sliding 1e4 × 1.0), head_dim 128, sliding_window 512.
    {"laguna", true, 5e5, 131072, 128, 0, 512, LP::all_global, kHalf, D::standard, PS::rope},
    // Qwen2_5OmniTextConfig (the thinker's language model): Qwen2's attention with M-RoPE.
    {"qwen2_5_omni_text", true, 1e6, 32768, 0, 0, 32768, LP::qwen2_max_window, kHalf, D::qwen_vl, PS::rope},
    {"internlm2", false, 1e4, 2048, 0, 0, 0, LP::all_global, kHalf, D::standard, PS::rope},
    {"minicpm", false, 1e4, 4096, 0, 0, 0, LP::all_global, kHalf, D::standard, PS::rope},
    {"minicpmv", false, 1e4, 4096, 0, 0, 0, LP::all_global, kHalf, D::standard, PS::rope},
    {"mixformer-sequential", false, 1e4, 2048, 0, 0, 0, LP::all_global, kHalf, D::standard, PS::rope},
    {"stablelm_epoch", false, 1e4, 4096, 0, 0.25, 0, LP::all_global, kHalf, D::standard, PS::rope},
    {"chatglm", false, 1e4, 0, 0, 0.5, 0, LP::all_global, kInterleaved, D::chatglm, PS::rope},
    {"qwen", false, 1e4, 0, 0, 1.0, 0, LP::all_global, kHalf, D::qwen1, PS::rope},
    // Remote code whose RoPE the engines' model files read as written: vLLM bailing_moe.py (rotate-half,
    // partial_rotary_factor default 1), hunyuan_v1.py (rotate-half; rope_scaling alpha, rope_setups.cpp).
    {"bailing_moe", false, 1e4, 0, 0, 0, 0, LP::all_global, kHalf, D::standard, PS::rope},
    {"hunyuan", false, 1e4, 0, 0, 0, 0, LP::all_global, kHalf, D::standard, PS::rope},
    // TeleChat3 remote code, which vLLM serves with llama.py (registry TeleChat3ForCausalLM); its "telechat3-yarn"
    // scaling is read in rope_setups.cpp.
    {"telechat3", false, 1e4, 0, 0, 0, 0, LP::all_global, kHalf, D::standard, PS::rope},
    // Hybrids: attention interleaved with linear attention, Mamba or convolutions (attention_layers.cpp).
    {"qwen3_next", true, 1e4, 32768, 256, 0.25, 0, LP::all_global, kHalf, D::standard, PS::rope},
    {"qwen3_5_text", true, 1e4, 32768, 256, 0.25, 0, LP::all_global, kHalf, D::qwen_vl, PS::rope},
    {"qwen3_5", true, 1e4, 32768, 256, 0.25, 0, LP::all_global, kHalf, D::qwen_vl, PS::rope},
    {"qwen3_5_moe_text", true, 1e4, 32768, 256, 0.25, 0, LP::all_global, kHalf, D::qwen_vl, PS::rope},
    {"qwen3_5_moe", true, 1e4, 32768, 256, 0.25, 0, LP::all_global, kHalf, D::qwen_vl, PS::rope},
    {"bamba", true, 1e4, 0, 0, 0.5, 0, LP::all_global, kHalf, D::standard, PS::rope},
    {"falcon_h1", true, 1e4, 0, 0, 0, 0, LP::all_global, kHalf, D::standard, PS::rope},
    {"granitemoehybrid", true, 1e4, 0, 0, 0, 0, LP::all_global, kHalf, D::standard, PS::rope},
    {"lfm2", true, 1e6, 0, 0, 0, 0, LP::all_global, kHalf, D::standard, PS::rope},
    {"minimax", true, 1e6, 0, 0, 0, 0, LP::all_global, kHalf, D::standard, PS::rope},
    // MiniMax-M1 remote code, served by vLLM minimax_text_01.py: rotary_dim of head_dim, rotate-half, attn_type_list.
    {"minimax_m1", false, 1e4, 0, 0, 0, 0, LP::all_global, kHalf, D::standard, PS::rope},
    {"zamba2", true, 1e4, 0, 0, 0, 0, LP::all_global, kHalf, D::standard, PS::rope},
    {"jamba", true, 0, 0, 0, 0, 0, LP::all_global, kHalf, D::non_rope, PS::none},
    {"nemotron_h", true, 0, 4096, 128, 0, 0, LP::all_global, kHalf, D::non_rope, PS::none},
    {"zamba", true, 0, 0, 0, 0, 0, LP::all_global, kHalf, D::non_rope, PS::none},
    // Not RoPE.
    {"bloom", true, 0, 0, 0, 0, 0, LP::all_global, kHalf, D::non_rope, PS::alibi},
    {"mpt", true, 0, 2048, 0, 0, 0, LP::all_global, kHalf, D::non_rope, PS::alibi},
    {"gpt2", true, 0, 1024, 0, 0, 0, LP::all_global, kHalf, D::non_rope, PS::learned_absolute},
    {"gpt_bigcode", true, 0, 2048, 0, 0, 0, LP::all_global, kHalf, D::non_rope, PS::learned_absolute},
    {"gpt_neo", true, 0, 2048, 0, 0, 0, LP::all_global, kHalf, D::non_rope, PS::learned_absolute},
    {"bert", true, 0, 512, 0, 0, 0, LP::all_global, kHalf, D::non_rope, PS::learned_absolute},
    {"roberta", true, 0, 514, 0, 0, 0, LP::all_global, kHalf, D::non_rope, PS::learned_absolute},
    {"distilbert", true, 0, 512, 0, 0, 0, LP::all_global, kHalf, D::non_rope, PS::learned_absolute},
    {"opt", true, 0, 2048, 0, 0, 0, LP::all_global, kHalf, D::non_rope, PS::learned_absolute},
    {"bart", true, 0, 1024, 0, 0, 0, LP::all_global, kHalf, D::non_rope, PS::learned_absolute},
    {"t5", true, 0, 0, 0, 0, 0, LP::all_global, kHalf, D::non_rope, PS::t5_relative},
    {"mt5", true, 0, 0, 0, 0, 0, LP::all_global, kHalf, D::non_rope, PS::t5_relative},
    {"umt5", true, 0, 0, 0, 0, 0, LP::all_global, kHalf, D::non_rope, PS::t5_relative},
    {"marian", true, 0, 1024, 0, 0, 0, LP::all_global, kHalf, D::non_rope, PS::sinusoidal},
    {"m2m_100", true, 0, 1024, 0, 0, 0, LP::all_global, kHalf, D::non_rope, PS::sinusoidal},
    {"fsmt", true, 0, 1024, 0, 0, 0, LP::all_global, kHalf, D::non_rope, PS::sinusoidal},
};

constexpr Family kUnknownFamily{"", false, 1e4, 0, 0, 0, 0, LP::all_global, kHalf, D::standard, PS::rope};

// The model class an engine dispatches on, and the model_type whose semantics that class runs (vLLM's
// vllm/model_executor/models/registry.py and the model file it names; docs/engines.md cites each).
constexpr std::pair<std::string_view, std::string_view> kArchitectures[] = {
    {"DeepseekV2ForCausalLM", "deepseek_v2"},
    {"DeepseekV3ForCausalLM", "deepseek_v3"},
    {"DeepseekV32ForCausalLM", "deepseek_v32"},
    {"DeepseekV4ForCausalLM", "deepseek_v4"},            // registry.py line 101: vllm/models/deepseek_v4
    {"KimiK25ForConditionalGeneration", "deepseek_v3"},  // its language model is DeepseekV2ForCausalLM
    {"GlmMoeDsaForCausalLM", "glm_moe_dsa"},
    {"Glm4MoeForCausalLM", "glm4_moe"},
    {"Glm4vForConditionalGeneration", "glm4v"},
    {"MiniMaxM2ForCausalLM", "minimax_m2"},
    {"MiniMaxM3SparseForConditionalGeneration", "minimax_m3_vl"},  // SGLang models/minimax_m3_vl.py
    {"MiniMaxM3SparseForCausalLM", "minimax_m3"},                  // SGLang models/minimax_m3.py
    {"MiniCPM3ForCausalLM", "minicpm3"},
    {"KimiLinearForCausalLM", "kimi_linear"},
    {"SmolLM3ForCausalLM", "smollm3"},
    {"Qwen3_5ForConditionalGeneration", "qwen3_5"},
    {"Qwen3_5MoeForConditionalGeneration", "qwen3_5_moe"},
    {"GPTBigCodeForCausalLM", "gpt_bigcode"},
    {"DeciLMForCausalLM", "llama"},  // nemotron_nas.py: DeciLMAttention(LlamaAttention), block_configs per layer
    {"MolmoForCausalLM", "llama"},   // molmo.py: get_rope(head_dim, rotary_dim=head_dim, base=rope_theta)
    {"LlamaForCausalLM", "llama"},
    {"MistralForCausalLM", "mistral"},
    {"MixtralForCausalLM", "mixtral"},
    {"Qwen2ForCausalLM", "qwen2"},
    {"MiMoForCausalLM", "qwen2"},  // mimo.py: MiMoForCausalLM(Qwen2ForCausalLM)
    {"MiMoV2FlashForCausalLM", "mimo_v2_flash"},
    {"MiMoV2ForCausalLM", "mimo_v2"},  // mimo_v2.py: the same decoder layer as MiMoV2FlashForCausalLM
    {"LagunaForCausalLM", "laguna"},
    {"GraniteSWAForCausalLM", "granite_swa"},
    {"GraniteMoeSWAForCausalLM", "granitemoe_swa"},
    {"TeleChat3ForCausalLM", "telechat3"},
    {"Telechat3ForCausalLM", "telechat3"},  // the spelling of TeleChat3's published config.json
    {"Qwen3ForCausalLM", "qwen3"},
    {"Qwen3MoeForCausalLM", "qwen3_moe"},
    {"Phi3ForCausalLM", "phi3"},
    {"Phi4ForCausalLMV", "phi3"},  // Phi-4-reasoning-vision: its remote class subclasses Phi3ForCausalLM
    {"GPTNeoXForCausalLM", "gpt_neox"},
    {"GPT2LMHeadModel", "gpt2"},
};

const Family* family_of_class(std::string_view class_name) {
  for (const auto& [name, model_type] : kArchitectures)
    if (name == class_name) return &family_of(model_type);
  return nullptr;
}

std::optional<ResolvedFamily> from_architectures(const ConfigView& view) {
  auto hit = view.find_value({"architectures"});
  if (!hit || !hit->value->is_array()) return std::nullopt;
  for (std::size_t i = 0; i < hit->value->size(); ++i) {
    const auto& item = (*hit->value)[i];
    if (!item.is_string()) continue;
    if (const Family* family = family_of_class(item.get<std::string>()))
      return ResolvedFamily{family, FamilyBasis::architectures, item.get<std::string>(),
                            json_pointer_join(hit->pointer, std::to_string(i))};
  }
  return std::nullopt;
}

// auto_map names "module.Class"; the class after the last dot is what transformers instantiates.
std::optional<ResolvedFamily> from_auto_map(const ConfigView& view) {
  auto hit = view.find_value({"auto_map"});
  if (!hit || !hit->value->is_object()) return std::nullopt;
  auto it = hit->value->find("AutoModelForCausalLM");
  if (it == hit->value->end() || !it->is_string()) return std::nullopt;
  const std::string reference = it->get<std::string>();
  const std::string class_name = reference.substr(reference.rfind('.') + 1);
  if (const Family* family = family_of_class(class_name))
    return ResolvedFamily{family, FamilyBasis::auto_map, class_name,
                          json_pointer_join(hit->pointer, "AutoModelForCausalLM")};
  return std::nullopt;
}

// DeepSeek's multi-head latent attention: a compressed KV (kv_lora_rank) and a separate rotary part per head.
std::optional<ResolvedFamily> from_key_signature(const ConfigView& view) {
  auto rank = view.find_value({"kv_lora_rank"});
  auto rope = view.find_value({"qk_rope_head_dim"});
  if (!rank || !rope) return std::nullopt;
  return ResolvedFamily{&family_of("deepseek_v3"), FamilyBasis::key_signature, "kv_lora_rank and qk_rope_head_dim",
                        rope->pointer};
}

}  // namespace

const Family& family_of(std::string_view model_type) {
  for (const auto& family : kFamilies)
    if (family.model_type == model_type) return family;
  return kUnknownFamily;
}

bool is_known_family(std::string_view model_type) { return !family_of(model_type).model_type.empty(); }

ResolvedFamily resolve_family(const ConfigView& view, std::string_view model_type) {
  if (is_known_family(model_type)) return {&family_of(model_type), FamilyBasis::model_type, "", ""};
  if (auto resolved = from_architectures(view)) return *resolved;
  if (auto resolved = from_auto_map(view)) return *resolved;
  if (auto resolved = from_key_signature(view)) return *resolved;
  return {&kUnknownFamily, FamilyBasis::best_effort, "", ""};
}

}  // namespace ropelens::normalize_detail
