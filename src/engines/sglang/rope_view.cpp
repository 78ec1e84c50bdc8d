// SGLang: python/sglang/srt/layers/rotary_embedding/factory.py::get_rope (vLLM-derived dispatch), yarn.py
// @0b1fd02d, mrope.py @020d83a0, and hf_transformers/common.py::get_context_length @00828e56 with
// model_config.py::_derive_context_length.
#include <cmath>

#include <fmt/format.h>

#include "sglang.hpp"

namespace ropelens::engine_detail {
namespace {

// YaRNScalingRotaryEmbedding: the mscale pair when both keys are present (`is not None`, unlike transformers'
// truthiness), else gm(f); times attn_factor (SGLang's key; transformers' attention_factor is not forwarded).
double yarn_magnitude(const RopeSetup& setup) {
  const double factor = stated_factor(setup);
  if (setup.yarn.mscale && setup.yarn.mscale_all_dim)
    return yarn_mscale(factor, setup.yarn.mscale->value) / yarn_mscale(factor, setup.yarn.mscale_all_dim->value);
  return yarn_mscale(factor);
}

EngineSetupView sglang_yarn_view(const Model& model, const RopeSetup& setup, int index) {
  if (is_mla(model) || is_deepseek_yarn(setup))
    return deepseek_yarn_view(model, setup, index,
                              Note("deepseek_yarn and MLA models run DeepseekScalingRotaryEmbedding: magnitude "
                                   "gm(f, mscale)/gm(f, mscale_all_dim); "
                                   "model_config.py scales the softmax by gm(f, mscale_all_dim)²"));
  EngineSetupView view = from_table(index, compute_rope_table(setup));
  view.method = RopeType::yarn;
  if (!setup.mrope_section.empty()) {
    view.rope_magnitude = yarn_mscale(stated_factor(setup));
    view.notes.push_back(
        Note("YaRNScalingMRotaryEmbedding: correction range on original_max_position_embeddings (as "
             "transformers), magnitude gm(f) only"));
    return view;
  }
  const double magnitude = yarn_magnitude(setup);
  if (setup.yarn.attention_factor && std::abs(magnitude - view.rope_magnitude) > 1e-12)
    view.notes.push_back(Note("attention_factor {:.6g} is not forwarded (SGLang reads attn_factor): magnitude {:.6g}",
                              setup.yarn.attention_factor->value, magnitude));
  view.rope_magnitude = magnitude;
  return view;
}

// DynamicNTKScalingRotaryEmbedding (rope_variant.py) is vLLM's class before PR #41277: one constant base.
EngineSetupView sglang_dynamic_view(const RopeSetup& setup, int index) {
  const double factor = stated_factor(setup);
  const double base = ntk_aware_base(setup.rope_theta.value, setup.rotary_dim, factor * factor - factor + 1.0);
  RopeTable table = compute_rope_table(setup);
  table.inv_freq = base_inverse_frequencies(base, setup.rotary_dim, setup.rotary_dim / 2);
  EngineSetupView view = from_table(index, table);
  view.method = RopeType::dynamic;
  view.factor = factor;
  view.effective_theta = base;
  view.notes.push_back(
      Note("dynamic NTK is static (vLLM's class before PR #41277): base {:.6g} for every sequence", base));
  return view;
}

EngineSetupView sglang_longrope_view(const RopeSetup& setup, int index, std::int64_t target_tokens) {
  EngineSetupView view = from_table(index, compute_rope_table(setup, target_tokens));
  view.method = RopeType::longrope;
  const double original = static_cast<double>(original_or_declared(setup));
  const double scale = static_cast<double>(setup.max_position_embeddings.value) / original;
  view.rope_magnitude = scale <= 1.0 ? 1.0 : std::sqrt(1.0 + std::log(scale) / std::log(original));
  view.factor_switch = FactorSwitch::per_batch;
  view.notes.push_back(
      Note("Phi3LongRoPEScaledRotaryEmbedding.forward (rope_variant.py @0b1fd02d): long factors for every "
           "token of a forward batch when any position in it exceeds {}, so a short request switches when a "
           "long one shares its batch; keys already cached are not re-rotated ({} at the target)",
           original_or_declared(setup), view.long_factors ? "long" : "short"));
  return view;
}

EngineSetupView sglang_method_view(const Model& model, const RopeSetup& setup, int index, std::int64_t target_tokens) {
  switch (setup.type) {
    case RopeType::dynamic: return sglang_dynamic_view(setup, index);
    case RopeType::yarn: return sglang_yarn_view(model, setup, index);
    case RopeType::longrope: return sglang_longrope_view(setup, index, target_tokens);
    default: break;
  }
  EngineSetupView view = from_table(index, compute_rope_table(setup));
  view.method = setup.type;
  return view;
}

// models/deepseek_v4.py (MqaAttentionBase @8905cbd42f4a27dbecad6487cd3904278756fef8): rope_base compress_rope_theta
// where the layer compresses, else rope_theta, and precompute_freqs_cis with the config's YaRN (factor, beta_fast,
// beta_slow, original_max_position_embeddings) on every layer, the compress_ratio 0 layers included: unit magnitude,
// bit-identical to vLLM's deepseek_v4.py.
RopeSetup sglang_deepseek_v4_reading(const Model& model, const RopeSetup& setup, std::vector<Note>& notes) {
  if (model.read_as != "deepseek_v4") return setup;
  RopeSetup served = deepseek_v4_served(model, setup);
  if (setup.type != RopeType::yarn && served.type == RopeType::yarn)
    notes.push_back(
        Note("deepseek_v4.py runs precompute_freqs_cis with the config's YaRN (factor {}, original {}) "
             "on the {} layers too, on rope_theta {}; transformers' DeepseekV4Config runs them unscaled",
             fmt_number(stated_factor(served)), original_or_declared(served), setup.name,
             fmt_number(setup.rope_theta.value)));
  return served;
}

// models/llama.py (LlamaDecoderLayer @8905cbd4, which Phi-3 runs): a config with an original_max_position_embeddings
// attribute has it written into its rope dict, so a legacy "su" dict, which transformers leaves without one, runs on
// the top-level length (Phi-3-mini-128k: 4096, magnitude sqrt(1 + ln(131072/4096)/ln 4096) = 1.1902).
RopeSetup sglang_original_length(const Model& model, const RopeSetup& setup, std::vector<Note>& notes) {
  if (setup.type != RopeType::longrope || setup.original_max_position_embeddings ||
      !model.original_max_position_embeddings)
    return setup;
  RopeSetup served = setup;
  served.original_max_position_embeddings = model.original_max_position_embeddings;
  notes.push_back(Note("llama.py writes the top-level original_max_position_embeddings {} into the \"{}\" dict",
                       model.original_max_position_embeddings->value, setup.rope_type_name.value));
  return served;
}

EngineSetupView sglang_setup_view(const Model& model, const RopeSetup& setup, int index, std::int64_t target_tokens) {
  std::vector<Note> notes;
  const RopeSetup served =
      sglang_original_length(model, sglang_deepseek_v4_reading(model, layer_dict_reading(setup, notes), notes), notes);
  EngineSetupView view = sglang_method_view(model, served, index, target_tokens);
  view.notes.insert(view.notes.begin(), notes.begin(), notes.end());
  return view;
}

// CONTEXT_LENGTH_KEYS (python/sglang/srt/utils/hf_transformers/common.py @00828e56): "The ordering here is
// important"; the first key present wins.
constexpr std::string_view kSglangLengthKeys[] = {"max_sequence_length", "seq_length", "max_seq_len",
                                                  "model_max_length", "max_position_embeddings"};

const LengthKey* first_length_key(const Model& model) {
  for (std::string_view key : kSglangLengthKeys)
    if (const LengthKey* found = model.length_key(key)) return found;
  return nullptr;
}

// No key of CONTEXT_LENGTH_KEYS, and no max_position_embeddings attribute either: T5Config maps none to its
// n_positions (GPT-2's config class does), so a T5 config's n_positions 512 is not seen.
bool finds_no_length(const Model& model) {
  if (first_length_key(model)) return false;
  return states_no_length(model) || model.scheme == PositionScheme::t5_relative;
}

// get_context_length: the first length key × factor, the factor forced to 1 when the dict has
// original_max_position_embeddings (transformers fills it for yarn/longrope/llama3) or is llama3.
LengthLimit sglang_length_limit(const Model& model, std::int64_t target_tokens) {
  if (finds_no_length(model)) {
    LengthLimit assumed = assumed_length_limit();
    assumed.limit_tokens = assumed.default_tokens;
    assumed.beyond = LimitAction::error;
    if (target_tokens > kEngineDefaultLength)
      assumed.message =
          fmt::format("ValueError: User-specified context_length ({}) is greater than the derived context_length ({})",
                      target_tokens, kEngineDefaultLength);
    assumed.override_how = "SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1 with --context-length (then a warning)";
    return assumed;
  }
  LengthLimit limit;
  const LengthKey* first = first_length_key(model);
  const std::string key = first ? first->key : "max_position_embeddings";
  const auto declared = first ? first->tokens.value : model.max_position_embeddings.value;
  double factor = 1.0;
  std::string how = fmt::format("{} {}", key, declared);
  if (first && model.length_keys.size() > 1) how += " (the first of CONTEXT_LENGTH_KEYS present)";
  if (const RopeSetup* setup = deciding_setup(model)) {
    const bool ignored = setup->original_max_position_embeddings.has_value() || setup->type == RopeType::llama3;
    if (setup->factor && !ignored) {
      factor = setup->factor->value;
      how = fmt::format("{} × factor {}", how, fmt_number(factor));
    } else if (setup->factor) {
      how += fmt::format(" (factor {} ignored: {})", fmt_number(setup->factor->value),
                         setup->type == RopeType::llama3 ? "llama3" : "original_max_position_embeddings is present");
    }
  }
  const auto derived = whole_tokens(factor * static_cast<double>(declared));
  limit.limit_tokens = derived;
  limit.default_tokens = derived;
  limit.derivation = how;
  limit.length_key = first ? first->key : "";
  limit.beyond = LimitAction::error;
  if (target_tokens > derived)
    limit.message = fmt::format(
        "ValueError: User-specified context_length ({}) is greater than the derived "
        "context_length ({})",
        target_tokens, derived);
  limit.override_how = "SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1 with --context-length (then a warning)";
  return limit;
}

// Where SGLang stops on a config. It reloads a chatglm config with its own ChatGLMConfig (configs/chatglm.py
// @8905cbd4), whose defaults are ChatGLM2-6B's; chatglm.py then builds ChatGLM2's modules, and load_weights looks the
// v1 checkpoint's tensor names (transformer.layers.N.attention.*) up among them without a fallback.
std::optional<std::string> sglang_refusal(const Model& model) {
  // rotary_embedding/factory.py @8905cbd4 get_rope: no branch for TeleChat3's type.
  for (const auto& setup : model.setups)
    if (setup.rope_type_name.value == "telechat3-yarn")
      return std::string("ValueError: Unknown RoPE scaling type telechat3-yarn (rotary_embedding/factory.py get_rope)");
  if (auto mimo = mimo_v2_refusal(model)) return mimo;
  if (model.model_type.value != "chatglm" || model.states_key("multi_query_attention")) return std::nullopt;
  return std::string(
      "KeyError in load_weights: the config lacks ChatGLM2's multi_query_attention, so SGLang's ChatGLMConfig "
      "fills ChatGLM2-6B defaults and chatglm.py builds ChatGLM2's layers, which the ChatGLM-6B v1 checkpoint's "
      "tensor names do not match");
}

}  // namespace

EngineView sglang_view(const Model& model, EngineVersion version, std::int64_t target_tokens) {
  EngineView view = empty_view(model, version);
  view.follows =
      "SGLang rotary_embedding/factory.py, yarn.py @0b1fd02d, hf_transformers/common.py get_context_length "
      "@00828e56";
  view.length = sglang_length_limit(model, target_tokens);
  if (version == EngineVersion::sglang_ktransformers)
    view.notes.push_back(
        Note("kt run passes --max-total-tokens {} unless given one: the token pool, so a request's input stops "
             "below min(context length − 1, {} − 1) − 5 tokens",
             kKtransformersTotalTokens, kKtransformersTotalTokens));
  view.refusal = sglang_refusal(model);
  if (view.refusal) view.notes.push_back(Note("cannot load this config: {}", *view.refusal));
  // HfModelConfigParser.parse (utils/hf_transformers/config.py @8905cbd4) calls AutoConfig.from_pretrained first;
  // common.py registers only its own classes and the deepseek_v32/deepseek_v4/kimi_k2 aliases.
  if (model_type_needs_registering(model))
    view.notes.push_back(
        Note("model_type '{}' has no config class in SGLang's registry and the config no auto_map: "
             "unless transformers has one, loading stops in AutoConfig before {} is chosen",
             model.model_type.value, model.read_as));
  for (std::size_t i = 0; i < model.setups.size(); ++i)
    view.setups.push_back(sglang_setup_view(model, model.setups[i], static_cast<int>(i), target_tokens));
  return view;
}

}  // namespace ropelens::engine_detail
