// vLLM: vllm/model_executor/layers/rotary_embedding/ (get_rope and one class per method) and
// vllm/config/model.py::_get_and_verify_max_len. Three versions differ:
//   ≥ PR #56446 (2026-09-11): YaRN follows transformers (attention_factor, mscale pair), and max_model_len is
//     never multiplied by the YaRN factor (derived = max_position_embeddings);
//   < #56446: the YaRN whitelist dropped attention_factor/mscale/mscale_all_dim (magnitude gm(f)), YaRN
//     max_model_len = original × factor, and dynamic NTK used the constant base before PR #41277;
//   PR #41277 … #56446: dynamic NTK's new formula (no scaling without max_trained_positions), YaRN still legacy.
#include <cmath>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "vllm.hpp"

namespace ropelens::engine_detail {
namespace {

bool legacy_yarn(EngineVersion version) { return version != EngineVersion::vllm_current; }
bool legacy_dynamic(EngineVersion version) { return version == EngineVersion::vllm_legacy; }

// Phi3LongRoPEScaledRotaryEmbedding @63c2b7ab: short/long mscale default from max/original only.
double longrope_mscale(const RopeSetup& setup) {
  const double original = static_cast<double>(original_or_declared(setup));
  const double scale = static_cast<double>(setup.max_position_embeddings.value) / original;
  return scale <= 1.0 ? 1.0 : std::sqrt(1.0 + std::log(scale) / std::log(original));
}

EngineSetupView vllm_dynamic_view(const RopeSetup& setup, int index, EngineVersion version) {
  const double factor = stated_factor(setup);
  const int dim = setup.rotary_dim;
  // #41277: θ·(f·M/M_trained − (f−1))^(d/(d−2)) with M_trained = max_trained_positions, absent here, so = M.
  const double base = legacy_dynamic(version)
                          ? ntk_aware_base(setup.rope_theta.value, dim, factor * factor - factor + 1.0)
                          : setup.rope_theta.value;
  RopeTable table = compute_rope_table(setup);
  table.inv_freq = base_inverse_frequencies(base, dim, dim / 2);
  EngineSetupView view = from_table(index, table);
  view.method = RopeType::dynamic;
  view.factor = factor;
  view.effective_theta = base;
  const auto declared = setup.max_position_embeddings.value;
  if (legacy_dynamic(version))
    view.notes.push_back(
        Note("dynamic NTK is static: one base θ·(f²−f+1)^(d/(d−2)) = {:.6g} for a cache of {} "
             "rows, used for every sequence, short ones included (#3488, #5093)",
             base, whole_tokens(static_cast<double>(declared) * factor)));
  else
    view.notes.push_back(
        Note("dynamic NTK after PR #41277: without max_trained_positions the base stays {:.6g} "
             "(no scaling); the cache has {} rows while max_model_len is {} × {:.6g}, so later "
             "positions read past it (PR #55910)",
             base, declared, declared, factor));
  return view;
}

EngineSetupView mla_yarn_view(const Model& model, const RopeSetup& setup, int index) {
  return deepseek_yarn_view(
      model, setup, index,
      Note("deepseek_v2.py runs rope_type deepseek_yarn (DeepseekScalingRotaryEmbedding @7bc8d408): "
           "magnitude gm(f, mscale)/gm(f, mscale_all_dim), softmax scale × gm(f, mscale_all_dim)²"));
}

EngineSetupView mrope_yarn_view(const RopeSetup& setup, int index) {
  RopeSetup wide = setup;
  const std::int64_t original = original_or_declared(setup);
  wide.original_max_position_embeddings =
      Field<std::int64_t>{4 * original, Provenance::derived("MRotaryEmbedding passes 4 × max_position")};
  EngineSetupView view = from_table(index, compute_rope_table(wide));
  view.method = RopeType::yarn;
  view.rope_magnitude = yarn_mscale(stated_factor(setup));
  view.notes.push_back(
      Note("MRoPE + YaRN (mrope.py @dba39a55): the correction range is computed on 4 × {} = "
           "{} tokens; magnitude gm(f) only",
           original, 4 * original));
  return view;
}

EngineSetupView vllm_yarn_view(const Model& model, const RopeSetup& setup, int index, EngineVersion version) {
  if (is_mla(model)) return mla_yarn_view(model, setup, index);
  if (is_deepseek_yarn(setup))
    return deepseek_yarn_view(
        model, setup, index,
        Note("rope_type deepseek_yarn: get_rope builds DeepseekScalingRotaryEmbedding "
             "(rotary_embedding/__init__.py @07b12f1b): magnitude gm(f, mscale)/gm(f, mscale_all_dim)"));
  if (!setup.mrope_section.empty()) return mrope_yarn_view(setup, index);
  EngineSetupView view = from_table(index, compute_rope_table(setup));
  view.method = RopeType::yarn;
  if (setup.rope_type_name.value == "telechat3-yarn") {
    view.notes.push_back(
        Note("get_rope builds TeleChat3RoPEScaledRotaryEmbedding (telechat3_scaling_rope.py @9aaf83ef): "
             "scale max_position / original, magnitude 0.07 ln s + 1 = {:.6g}",
             view.rope_magnitude));
    return view;
  }
  if (!legacy_yarn(version)) return view;
  const double plain = yarn_mscale(stated_factor(setup));
  if (std::abs(plain - view.rope_magnitude) > 1e-12)
    view.notes.push_back(
        Note("attention_factor, mscale and mscale_all_dim are not forwarded (get_rope "
             "whitelist before PR #56446): magnitude gm(f) = {:.6g} instead of {:.6g}",
             plain, view.rope_magnitude));
  view.rope_magnitude = plain;
  return view;
}

EngineSetupView vllm_longrope_view(const RopeSetup& setup, int index, std::int64_t target_tokens) {
  EngineSetupView view = from_table(index, compute_rope_table(setup, target_tokens));
  view.method = RopeType::longrope;
  view.rope_magnitude = longrope_mscale(setup);
  view.factor_switch = FactorSwitch::per_deployment;
  view.notes.push_back(
      Note("LongRoPE is chosen once per deployment: the long factors for every sequence when "
           "max_model_len > {} (here {}), short prompts included; mscale from "
           "max/original = {:.6g} (attention_factor in the config is not read)",
           original_or_declared(setup), view.long_factors ? "long" : "short", view.rope_magnitude));
  return view;
}

// patch_rope_parameters (vllm/transformers_utils/config.py @9aaf83ef) takes the partial factor from
// partial_rotary_factor, rotary_pct or rotary_emb_fraction; stablelm.py passes no rotary dim of its own, so a
// config that states rope_pct (StableLM-Epoch remote code) rotates every dimension in vLLM.
bool partial_from_rope_pct(const RopeSetup& setup) {
  return setup.partial_rotary_factor.from.origin == Origin::config &&
         setup.partial_rotary_factor.from.key() == "rope_pct";
}

// deepseek_v4.py (DeepseekV4Attention @f1b76c19a8f7fc2f2a8ce2918533933128a3b22a): each layer's rotary takes
// compress_rope_theta where the layer compresses and rope_theta elsewhere, and, when the config scales, rope_type
// deepseek_yarn with mscale and mscale_all_dim 0 (magnitude 1) on every layer: the sliding-window layers too, which
// transformers' DeepseekV4Config runs unscaled.
RopeSetup deepseek_v4_reading(const Model& model, const RopeSetup& setup, std::vector<Note>& notes) {
  if (model.read_as != "deepseek_v4") return setup;
  RopeSetup served = deepseek_v4_served(model, setup);
  if (setup.type != RopeType::yarn && served.type == RopeType::yarn)
    notes.push_back(
        Note("deepseek_v4.py gives the {} layers deepseek_yarn too (factor {}, original {}) on "
             "rope_theta {}; transformers' DeepseekV4Config runs them unscaled",
             setup.name, fmt_number(stated_factor(served)), original_or_declared(served),
             fmt_number(setup.rope_theta.value)));
  return served;
}

// What vLLM's get_rope receives for this setup: the layer's own dict, rope_pct unread, Ling's rotary_dim
// (bailing_moe.py @9aaf83ef lines 133-134: partial_rotary_factor := getattr(config, "rotary_dim", head_dim) /
// head_dim), and in the
// transformers-v4 branch of patch_rope_parameters a top-level original_max_position_embeddings written into a
// flat dict (so legacy "su", which transformers leaves without one, runs on it as longrope).
RopeSetup vllm_reading(const Model& model, const RopeSetup& setup, std::vector<Note>& notes) {
  RopeSetup served = deepseek_v4_reading(model, layer_dict_reading(setup, notes), notes);
  if (partial_from_rope_pct(setup)) {
    served.partial_rotary_factor = {1.0, Provenance::by_default("vLLM reads no rope_pct: partial_rotary_factor 1")};
    served.rotary_dim = setup.head_dim.value;
    notes.push_back(Note(
        "rope_pct {} is not read (patch_rope_parameters knows partial_rotary_factor, rotary_pct "
        "and rotary_emb_fraction): all {} dimensions rotate, {} pairs instead of {}",
        fmt_number(setup.partial_rotary_factor.value), served.rotary_dim, served.rotary_dim / 2, setup.rotary_dim / 2));
  }
  if (model.model_type.value == "bailing_moe" && !model.states_key("rotary_dim") &&
      served.rotary_dim != setup.head_dim.value) {
    served.partial_rotary_factor = {1.0, Provenance::by_default("bailing_moe.py: rotary_dim / head_dim")};
    served.rotary_dim = setup.head_dim.value;
    notes.push_back(Note(
        "bailing_moe.py replaces partial_rotary_factor {} with getattr(config, \"rotary_dim\", head_dim) / "
        "head_dim: without rotary_dim all {} dims rotate, {} pairs instead of {} (since PR #30389)",
        fmt_number(setup.partial_rotary_factor.value), served.rotary_dim, served.rotary_dim / 2, setup.rotary_dim / 2));
  }
  if (setup.type == RopeType::longrope && !setup.original_max_position_embeddings &&
      model.original_max_position_embeddings) {
    served.original_max_position_embeddings = model.original_max_position_embeddings;
    notes.push_back(
        Note("patch_rope_parameters writes the top-level original_max_position_embeddings {} into the "
             "RoPE dict and renames \"{}\" to longrope",
             model.original_max_position_embeddings->value, setup.rope_type_name.value));
  }
  return served;
}

EngineSetupView vllm_method_view(const Model& model, const RopeSetup& setup, int index, EngineVersion version,
                                 std::int64_t target_tokens) {
  switch (setup.type) {
    case RopeType::dynamic: return vllm_dynamic_view(setup, index, version);
    case RopeType::yarn: return vllm_yarn_view(model, setup, index, version);
    case RopeType::longrope: return vllm_longrope_view(setup, index, target_tokens);
    default: break;
  }
  EngineSetupView view = from_table(index, compute_rope_table(setup));
  view.method = setup.type;
  return view;
}

EngineSetupView vllm_setup_view(const Model& model, const RopeSetup& setup, int index, EngineVersion version,
                                std::int64_t target_tokens) {
  std::vector<Note> notes;
  const RopeSetup served = vllm_reading(model, setup, notes);
  EngineSetupView view = vllm_method_view(model, served, index, version, target_tokens);
  view.notes.insert(view.notes.begin(), notes.begin(), notes.end());
  return view;
}

std::string key_name(const Provenance& from) { return from.pointer.empty() ? "max_position_embeddings" : from.key(); }

// _get_and_verify_max_len's possible_keys (vllm/config/model.py @18ec6629): the minimum over those present.
constexpr std::string_view kVllmLengthKeys[] = {
    "max_position_embeddings", "n_positions",         "max_seq_len",    "seq_length", "model_max_length",
    "max_target_positions",    "max_sequence_length", "max_seq_length", "seq_len"};

struct BaseLength {
  std::int64_t tokens = 0;
  std::string key;
  std::string how;
};

// The minimum over the length keys, then model_max_length in its place when set (Command-R, Cohere, Aya Vision).
BaseLength base_length(const Model& model) {
  const LengthKey* smallest = nullptr;
  std::vector<std::string> seen;
  for (std::string_view key : kVllmLengthKeys)
    if (const LengthKey* found = model.length_key(key)) {
      seen.push_back(fmt::format("{} {}", found->key, found->tokens.value));
      if (!smallest || found->tokens.value < smallest->tokens.value) smallest = found;
    }
  if (const LengthKey* cohere = model.length_key("model_max_length"); cohere && seen.size() > 1)
    return {
        cohere->tokens.value, cohere->key,
        fmt::format("model_max_length {} (replaces the minimum over {})", cohere->tokens.value, fmt::join(seen, ", "))};
  if (!smallest) {
    const auto& declared = model.max_position_embeddings;
    return {declared.value, "", fmt::format("{} {}", key_name(declared.from), declared.value)};
  }
  if (seen.size() == 1) return {smallest->tokens.value, smallest->key, seen.front()};
  return {smallest->tokens.value, smallest->key,
          fmt::format("{} {} (the minimum over {})", smallest->key, smallest->tokens.value, fmt::join(seen, ", "))};
}

// _get_and_verify_max_len: the length keys, then rope scaling per RoPE dict (skipped for gemma3).
std::pair<BaseLength, std::int64_t> derived_length(const Model& model, EngineVersion version) {
  BaseLength base = base_length(model);
  double derived = static_cast<double>(base.tokens);
  double scaling = 1.0;
  if (model.model_type.value.find("gemma3") != std::string::npos) {
    base.how += " (rope scaling skipped for gemma3)";
    return {base, base.tokens};
  }
  const std::string base_how = base.how;
  for (const auto& setup : model.setups) {
    if (setup.type == RopeType::linear || setup.type == RopeType::dynamic) {
      scaling = stated_factor(setup);
      base.how = fmt::format("{} × factor {}", base_how, fmt_number(scaling));
    } else if (setup.rope_type_name.value == "telechat3-yarn" && legacy_yarn(version)) {
      scaling = stated_factor(setup);
      base.how = fmt::format("{} × factor {} (telechat3-yarn is not in the yarn branch before PR #55116)", base_how,
                             fmt_number(scaling));
    } else if (setup.rope_type_name.value == "telechat3-yarn") {
      base.how = fmt::format("{} (telechat3-yarn: max_position_embeddings is the scaled length, PR #55116)", base_how);
    } else if (is_deepseek_yarn(setup) && legacy_yarn(version)) {
      scaling = stated_factor(setup);
      base.how = fmt::format("{} × factor {} (deepseek_yarn is not in the yarn branch)", base_how, fmt_number(scaling));
    } else if (setup.type == RopeType::yarn && legacy_yarn(version)) {
      derived = static_cast<double>(original_or_declared(setup));
      scaling = stated_factor(setup);
      base.how = fmt::format("original_max_position_embeddings {} × factor {}", original_or_declared(setup),
                             fmt_number(scaling));
    } else if (setup.type == RopeType::yarn) {
      base.how = fmt::format("{} (never multiplied for YaRN in unreleased vLLM main)", base_how);
    }
  }
  return {base, whole_tokens(derived * scaling)};
}

LengthLimit vllm_length_limit(const Model& model, EngineVersion version, std::int64_t target_tokens) {
  if (states_no_length(model)) {
    LengthLimit assumed = assumed_length_limit();
    assumed.derivation += " (a warning), or takes --max-model-len unchecked";
    return assumed;
  }
  LengthLimit limit;
  auto [base, derived] = derived_length(model, version);
  limit.limit_tokens = derived;
  limit.derivation = base.how;
  limit.length_key = base.key;
  limit.default_tokens = derived;
  bool longrope = false;
  for (const auto& setup : model.setups) longrope = longrope || setup.type == RopeType::longrope;
  if (longrope && model.original_max_position_embeddings) {
    limit.default_tokens = model.original_max_position_embeddings->value;
    limit.derivation += fmt::format("; LongRoPE defaults max_model_len to original_max_position_embeddings {}",
                                    model.original_max_position_embeddings->value);
  }
  limit.beyond = LimitAction::error;
  if (target_tokens > derived)
    limit.message = fmt::format(
        "ValueError: User-specified max_model_len ({}) is greater than the derived "
        "max_model_len ({})",
        target_tokens, derived);
  limit.override_how = fmt::format(
      "VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 (then a warning: positions beyond {} may give "
      "NaN)",
      derived);
  return limit;
}

std::string vllm_follows(EngineVersion version) {
  switch (version) {
    case EngineVersion::vllm_current:
      return "vLLM main, unreleased: YaRN aligned with transformers by PR #56446 (yarn_scaling_rope.py @0cd57848, "
             "model.py as described by the PR), dynamic NTK by PR #41277";
    case EngineVersion::vllm_dynamic_41277:
      return "vLLM between PR #41277 (2026-04-30) and PR #56446: new dynamic-NTK formula, legacy YaRN";
    default:
      return "vLLM before PR #56446 (yarn_scaling_rope.py @ffdc9857, model.py @18ec6629) and before PR #41277 "
             "(dynamic_ntk_scaling_rope.py @50feac95)";
  }
}

// patch_legacy_rope_type (vllm/transformers_utils/config.py @9aaf83ef, lines 405-454; run by patch_rope_parameters in
// both its transformers branches) treats rope_parameters as nested only when is_rope_parameters_nested's subset test
// passes: a key beside the layer-type dicts makes it check the outer dict for a rope_type, and it has none.
std::optional<std::string> stray_key_refusal(const Model& model) {
  if (model.rope_stray_keys.empty()) return std::nullopt;
  for (const auto& key : model.rope_stray_keys)
    if (key == "rope_type" || key == "type") return std::nullopt;
  return fmt::format(
      "ValueError: rope_parameters should have a 'rope_type' key (patch_legacy_rope_type: {} beside the layer-type "
      "dicts fails is_rope_parameters_nested's subset test, so the outer dict is read as flat)",
      fmt::join(model.rope_stray_keys, ", "));
}

// chatglm.py @9aaf83ef reads config.original_rope without a default, and vLLM's own ChatGLMConfig
// (transformers_utils/configs/chatglm.py), which fills ChatGLM2's other attributes, does not define it.
std::optional<std::string> vllm_refusal(const Model& model) {
  if (auto mimo = mimo_v2_refusal(model)) return mimo;
  if (auto stray = stray_key_refusal(model)) return stray;
  if (model.model_type.value != "chatglm" || model.states_key("original_rope")) return std::nullopt;
  return std::string(
      "AttributeError: 'ChatGLMConfig' object has no attribute 'original_rope' (chatglm.py reads it without a "
      "default; ChatGLM-6B v1 configs do not state it)");
}

}  // namespace

EngineView vllm_view(const Model& model, EngineVersion version, std::int64_t target_tokens) {
  EngineView view = empty_view(model, version);
  view.follows = vllm_follows(version);
  view.length = vllm_length_limit(model, version, target_tokens);
  view.refusal = vllm_refusal(model);
  if (view.refusal) view.notes.push_back(Note("cannot load this config: {}", *view.refusal));
  // HFConfigParser.parse (transformers_utils/config.py @9aaf83ef, lines 199-262): AutoConfig.from_pretrained raises
  // for a model_type neither transformers nor vLLM's _CONFIG_REGISTRY has; an hf_overrides model_type registers
  // vLLM's class under the on-disk name too.
  if (model_type_needs_registering(model))
    view.notes.push_back(
        Note("model_type '{}' has no config class in vLLM's registry and the config no auto_map: "
             "unless transformers has one, loading stops in AutoConfig before {} is chosen; "
             "--hf-overrides '{{\"model_type\": \"{}\"}}' loads it",
             model.model_type.value, model.read_as, model.read_as));
  for (std::size_t i = 0; i < model.setups.size(); ++i)
    view.setups.push_back(vllm_setup_view(model, model.setups[i], static_cast<int>(i), version, target_tokens));
  return view;
}

}  // namespace ropelens::engine_detail
