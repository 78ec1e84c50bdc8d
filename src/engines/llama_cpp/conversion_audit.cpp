// A GGUF file against its source config: the keys and tensors convert_hf_to_gguf.py writes for the config (plan_gguf,
// llama_cpp_convert.cpp) against what the file holds (from_gguf.cpp), in llama.cpp's loader terms. Known real cases:
// DeepSeek-V4 files converted under transformers 5.x without their YaRN keys (llama.cpp #26673), Phi LongRoPE factor
// tensors dropped for a rope_parameters config (#24820), a Laguna file with yarn_ext_factor 64 (ik_llama.cpp #2003).
#include "ropelens/engines/gguf_conversion_audit.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include <fmt/format.h>

#include "ropelens/input/gguf.hpp"
#include "ropelens/model/text.hpp"
#include "ropelens/normalize/normalize.hpp"
#include "llama_cpp.hpp"

namespace ropelens {
namespace {

using engine_detail::GgufRope;

// A value as people write it: 7 significant digits ("1000000", "4", "0.0078125").
// Written float32 values and config float64 ones alike, widened explicitly.
template <class Number> std::string fmt_number(Number value) {
  return fmt::format("{:.7g}", static_cast<double>(value));
}

// "the sliding_attention layers", or "every layer" for a model with one setup.
std::string layers_of(const RopeSetup& setup) {
  return setup.name == "all" ? std::string("every layer") : fmt::format("the {} layers", setup.name);
}

// GGUF stores these values as float32: 500000 survives, 0.1 does not, so equal means equal to float32 precision.
template <class A, class B> bool same_value(A written, B wanted) {
  const auto a = static_cast<double>(written);
  const auto b = static_cast<double>(wanted);
  return std::abs(a - b) <= 1e-6 * std::max({std::abs(a), std::abs(b), 1e-30});
}

bool same_values(const std::vector<float>& a, const std::vector<float>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (!same_value(a[i], b[i])) return false;
  return true;
}

// llama.cpp (llama-model.cpp) hard-codes n_no_rope_layer_step 4 for these architectures: every fourth layer is NoPE.
bool hard_codes_nope_every_fourth(std::string_view arch) { return arch == "smollm3" || arch == "llama4"; }

std::string listed(const std::vector<int>& layers) {
  if (layers.empty()) return "none";
  std::string out;
  for (std::size_t i = 0; i < layers.size() && i < 8; ++i) out += (i == 0 ? "" : ", ") + std::to_string(layers[i]);
  if (layers.size() > 8) out += fmt::format(", … ({} layers)", layers.size());
  return out;
}

class Auditor {
 public:
  Auditor(const Model& source, const Model& gguf) : source_(source), gguf_(gguf), facts_(*gguf.gguf) {
    out_.arch = gguf.model_type.value;
  }

  ConversionAudit run() {
    const engine_detail::GgufPlan plan = engine_detail::plan_gguf(source_);
    check_context_length();
    const RopeSetup* deciding = engine_detail::deciding_setup(source_);
    for (std::size_t i = 0; i < source_.setups.size() && i < plan.ropes.size(); ++i) {
      const RopeSetup& wanted = source_.setups[i];
      const RopeSetup* held = matching(wanted);
      if (held == nullptr) continue;
      check_theta(wanted, *held);
      if (&wanted == deciding) check_scaling(wanted, plan.ropes[i], *held);
      check_rotary_dims(wanted, *held);
    }
    check_nope_layers();
    return std::move(out_);
  }

 private:
  std::string key(std::string_view suffix) const { return fmt::format("{}.{}", out_.arch, suffix); }

  void add(ConversionAspect aspect, std::string gguf_key, std::string config_pointer, std::string written,
           std::string found, std::string consequence, std::string remedy) {
    std::string pointer = gguf_pointer(gguf_key);
    out_.differences.push_back({aspect, std::move(gguf_key), std::move(pointer), std::move(config_pointer),
                                std::move(written), std::move(found), std::move(consequence), std::move(remedy)});
  }

  // A number the file holds under `gguf_key`, set in place to the converter's value: gguf-set-metadata
  // (gguf-py/gguf/scripts/gguf_set_metadata.py) edits a number or bool the file has, and nothing else.
  std::string set_in_place(const std::string& gguf_key, const std::string& value) const {
    return fmt::format(
        "set the key to the converter's value in place: gguf-set-metadata {} {} {} (pip install gguf; "
        "it asks to confirm)",
        shell_word(gguf_.file_to_edit()), gguf_key, value);
  }

  // A key the file lacks, or a string: no tool adds or rewrites one in place, so a new conversion writes it.
  std::string convert_again(const std::string& what) const {
    const bool rope_parameters = source_.states_key("rope_parameters");
    return fmt::format(
        "convert {} again with {}, which writes {}; gguf-set-metadata changes only numbers the file already holds",
        source_.source,
        rope_parameters ? "a convert_hf_to_gguf.py from llama.cpp PR #18013 (December 2025) on, the first that reads "
                          "rope_parameters,"
                        : "a current convert_hf_to_gguf.py",
        what);
  }

  // The file's setup for the layers the config's setup covers: sliding with sliding, else the global one.
  const RopeSetup* matching(const RopeSetup& wanted) const {
    const RopeSetup* global = nullptr;
    for (const auto& setup : gguf_.setups) {
      if (setup.attention == AttentionKind::sliding && wanted.attention == AttentionKind::sliding) return &setup;
      if (setup.attention != AttentionKind::sliding && global == nullptr) global = &setup;
    }
    return global != nullptr ? global : (gguf_.setups.empty() ? nullptr : &gguf_.setups.front());
  }

  void check_context_length() {
    const auto wanted = source_.max_position_embeddings.value;
    const auto held = gguf_.max_position_embeddings.value;
    if (wanted == held) return;
    add(ConversionAspect::context_length, key("context_length"), source_.max_position_embeddings.from.pointer,
        std::to_string(wanted), std::to_string(held),
        held > wanted ? fmt::format("llama.cpp allows {} tokens by default, {} more than the config trained and "
                                    "declares",
                                    held, held - wanted)
                      : fmt::format("llama.cpp's default context is {} tokens, {} fewer than the config declares", held,
                                    wanted - held),
        set_in_place(key("context_length"), std::to_string(wanted)));
  }

  void check_theta(const RopeSetup& wanted, const RopeSetup& held) {
    if (same_value(wanted.rope_theta.value, held.rope_theta.value)) return;
    const bool sliding = wanted.attention == AttentionKind::sliding;
    const bool stated = held.rope_theta.from.origin == Origin::config;
    const std::string base_key = key(sliding ? "rope.freq_base_swa" : "rope.freq_base");
    add(ConversionAspect::theta, base_key, wanted.rope_theta.from.pointer, fmt_number(wanted.rope_theta.value),
        stated ? fmt_number(held.rope_theta.value)
               : fmt::format("absent (llama.cpp uses {})", fmt_number(held.rope_theta.value)),
        fmt::format("llama.cpp rotates {} with base {} where the config trained with {}: the slowest pair "
                    "turns ×{:.4g} as fast",
                    layers_of(wanted), fmt_number(held.rope_theta.value), fmt_number(wanted.rope_theta.value),
                    slowest_pair_ratio(wanted, held.rope_theta.value)),
        stated ? set_in_place(base_key, fmt_number(wanted.rope_theta.value))
               : convert_again(fmt::format("{} {} from {}", base_key, fmt_number(wanted.rope_theta.value),
                                           wanted.rope_theta.from.pointer)));
  }

  // inv_freq of the slowest pair with the file's base over the config's: (θ_config / θ_file)^((d-2)/d).
  static double slowest_pair_ratio(const RopeSetup& wanted, double held_theta) {
    const double d = std::max(wanted.rotary_dim, 2);
    return std::pow(wanted.rope_theta.value / held_theta, (d - 2.0) / d);
  }

  std::string found_type() const {
    if (facts_.scaling_type.from.origin == Origin::config) return facts_.scaling_type.value;
    return facts_.scaling_factor ? "linear" : "none";
  }

  void check_scaling(const RopeSetup& wanted, const GgufRope& written, const RopeSetup& held) {
    if (!written.rope_freqs.empty()) return check_factor_tensor("rope_freqs.weight", written.rope_freqs, wanted, held);
    // llama.cpp runs LongRoPE from the factor tensors, whatever rope.scaling.type says (Phi3MiniModel writes none).
    if (written.scaling_type == "longrope") return check_longrope(wanted, written, held);
    const std::string type = found_type();
    const std::string& pointer = wanted.rope_type_name.from.pointer;
    if (written.scaling_type != type) {
      add(ConversionAspect::scaling, key("rope.scaling.type"), pointer, written.scaling_type,
          facts_.scaling_type.from.origin == Origin::config ? type : fmt::format("absent ({})", type),
          written.scaling_type == "none"
              ? fmt::format("llama.cpp scales RoPE ({}) where the config runs {}", type, wanted.rope_type_name.value)
              : fmt::format(
                    "llama.cpp runs {} instead of the config's {}{}",
                    type == "none" ? fmt::format("plain RoPE with base {}", fmt_number(held.rope_theta.value)) : type,
                    wanted.rope_type_name.value,
                    written.factor > 0 ? fmt::format(" ×{}", fmt_number(written.factor)) : ""),
          convert_again(scaling_keys_written(written)));
      return;
    }
    if (written.scaling_type == "none") return;
    check_factor(wanted, written);
    if (written.scaling_type == "yarn") check_yarn(wanted, written, held);
  }

  // "rope.scaling.type yarn, rope.scaling.factor 4 and rope.scaling.original_context_length 32768"
  std::string scaling_keys_written(const GgufRope& written) const {
    std::vector<std::string> keys;
    if (written.scaling_type != "none")
      keys.push_back(fmt::format("{} {}", key("rope.scaling.type"), written.scaling_type));
    if (written.factor > 0)
      keys.push_back(fmt::format("{} {}", key("rope.scaling.factor"), fmt_number(written.factor)));
    if (written.scaling_type == "yarn" && written.n_ctx_orig_yarn != written.n_ctx_train)
      keys.push_back(fmt::format("{} {}", key("rope.scaling.original_context_length"), written.n_ctx_orig_yarn));
    if (keys.empty()) return fmt::format("no {} key", key("rope.scaling.type"));
    if (keys.size() == 1) return keys.front();
    const std::string last = keys.back();
    keys.pop_back();
    return fmt::format("{} and {}", fmt::join(keys, ", "), last);
  }

  void check_factor(const RopeSetup& wanted, const GgufRope& written) {
    if (written.factor <= 0) return;
    const bool stated = facts_.scaling_factor.has_value();
    if (stated && same_value(written.factor, facts_.scaling_factor->value)) return;
    const std::string config_key = wanted.factor ? wanted.factor->from.pointer : wanted.pointer;
    const std::string factor_key = facts_.scaling_factor ? facts_.scaling_factor->from.pointer.substr(5)
                                                         : key("rope.scaling.factor");  // "gguf:" dropped
    add(ConversionAspect::scaling, key("rope.scaling.factor"), config_key, fmt_number(written.factor),
        stated ? fmt_number(facts_.scaling_factor->value) : "absent",
        stated ? fmt::format("llama.cpp divides the frequencies by {} instead of {}",
                             fmt_number(facts_.scaling_factor->value), fmt_number(written.factor))
               : std::string("llama.cpp uses freq_scale 1: the file runs unscaled"),
        stated ? set_in_place(factor_key, fmt_number(written.factor))
               : convert_again(fmt::format("{} {}", key("rope.scaling.factor"), fmt_number(written.factor))));
  }

  // YaRN's original length (llama.cpp's n_ctx_orig_yarn: the key, else context_length), its ramp blend
  // (yarn_ext_factor, 1 for a converted file) and the attention factors the converter writes.
  void check_yarn(const RopeSetup& wanted, const GgufRope& written, const RopeSetup& held) {
    check_original(wanted, written);
    if (facts_.yarn_ext_factor && !same_value(facts_.yarn_ext_factor->value, 1.0))
      add(ConversionAspect::scaling, key("rope.scaling.yarn_ext_factor"), wanted.pointer, "absent (1)",
          fmt_number(facts_.yarn_ext_factor->value),
          fmt::format("llama.cpp blends YaRN's ramp with weight {} instead of 1: every pair between the correction "
                      "bounds gets other frequencies than the config's YaRN",
                      fmt_number(facts_.yarn_ext_factor->value)),
          set_in_place(key("rope.scaling.yarn_ext_factor"), "1"));
    if (wanted.yarn.attention_factor && wanted.yarn.attention_factor->from.origin == Origin::config) {
      const double config_value = wanted.yarn.attention_factor->value;
      const std::string attn_key = key("rope.scaling.yarn_attn_factor");
      if (!held.yarn.attention_factor)
        add(ConversionAspect::scaling, attn_key, wanted.yarn.attention_factor->from.pointer, fmt_number(config_value),
            "absent",
            fmt::format("llama.cpp scales cos/sin by its own YaRN magnitude instead of attention_factor {}",
                        fmt_number(config_value)),
            convert_again(fmt::format("{} {}", attn_key, fmt_number(config_value))));
      else if (!same_value(config_value, held.yarn.attention_factor->value))
        add(ConversionAspect::scaling, attn_key, wanted.yarn.attention_factor->from.pointer, fmt_number(config_value),
            fmt_number(held.yarn.attention_factor->value),
            fmt::format("the attention factor is {} instead of {}", fmt_number(held.yarn.attention_factor->value),
                        fmt_number(config_value)),
            set_in_place(attn_key, fmt_number(config_value)));
    }
    if (written.yarn_log_mul != 0.0f) {
      const double held_all_dim = held.yarn.mscale_all_dim ? held.yarn.mscale_all_dim->value : 0.0;
      const std::string multiplier_key = key("rope.scaling.yarn_log_multiplier");
      const auto log_mul = static_cast<double>(written.yarn_log_mul);
      const std::string stored = fmt_number(out_.arch == "deepseek2" ? 0.1 * log_mul : log_mul);
      if (!same_value(written.yarn_log_mul, held_all_dim))
        add(ConversionAspect::scaling, multiplier_key,
            wanted.yarn.mscale_all_dim ? wanted.yarn.mscale_all_dim->from.pointer : wanted.pointer,
            fmt_number(written.yarn_log_mul), held.yarn.mscale_all_dim ? fmt_number(held_all_dim) : "absent",
            "llama.cpp computes another YaRN magnitude than the config's mscale_all_dim gives",
            held.yarn.mscale_all_dim ? set_in_place(multiplier_key, stored)
                                     : convert_again(fmt::format("{} {}", multiplier_key, stored)));
    }
  }

  void check_original(const RopeSetup& wanted, const GgufRope& written) {
    const auto& stated = gguf_.original_max_position_embeddings;
    const std::int64_t held = stated ? stated->value : gguf_.max_position_embeddings.value;
    if (written.n_ctx_orig_yarn == held) return;
    const std::string original_key = key("rope.scaling.original_context_length");
    add(ConversionAspect::scaling, original_key,
        wanted.original_max_position_embeddings ? wanted.original_max_position_embeddings->from.pointer
                                                : wanted.pointer,
        std::to_string(written.n_ctx_orig_yarn),
        stated ? std::to_string(held) : fmt::format("absent (llama.cpp uses context_length {})", held),
        fmt::format("llama.cpp places the correction range for an original length of {} tokens, not {}", held,
                    written.n_ctx_orig_yarn),
        stated ? set_in_place(original_key, std::to_string(written.n_ctx_orig_yarn))
               : convert_again(fmt::format("{} {}", original_key, written.n_ctx_orig_yarn)));
  }

  void check_longrope(const RopeSetup& wanted, const GgufRope& written, const RopeSetup& held_setup) {
    check_factor_tensor("rope_factors_long.weight", written.long_factors, wanted, held_setup);
    check_factor_tensor("rope_factors_short.weight", written.short_factors, wanted, held_setup);
    check_original(wanted, written);
    const double held = facts_.attn_factor ? facts_.attn_factor->value : 1.0;
    const std::string attn_key = key("rope.scaling.attn_factor");
    if (!same_value(written.rope_attn_factor, held))
      add(ConversionAspect::scaling, attn_key,
          wanted.longrope.attention_factor ? wanted.longrope.attention_factor->from.pointer : wanted.pointer,
          fmt_number(written.rope_attn_factor), facts_.attn_factor ? fmt_number(held) : "absent (1)",
          fmt::format("llama.cpp scales cos/sin by {} instead of {}", fmt_number(held),
                      fmt_number(written.rope_attn_factor)),
          facts_.attn_factor ? set_in_place(attn_key, fmt_number(written.rope_attn_factor))
                             : convert_again(fmt::format("{} {}", attn_key, fmt_number(written.rope_attn_factor))));
  }

  // A factor tensor is written only by a conversion: no flag or metadata script adds or changes a tensor.
  std::string convert_tensor_again(std::string_view name) const {
    if (name == kRopeFreqsTensor)
      return fmt::format(
          "convert {} again with convert_hf_to_gguf.py from llama.cpp PR #8676 (b5e95468, July 2024) on, which writes "
          "rope_freqs.weight for rope_type llama3; no llama.cpp flag or gguf-py script adds or changes a tensor",
          source_.source);
    // Phi3MiniModel.generate_extra_tensors reads the factors from rope_scaling alone (conversion/phi.py @7bca1fd9).
    if (source_.states_key("rope_parameters"))
      return fmt::format(
          "convert {} again with its LongRoPE dict spelled rope_scaling: convert_hf_to_gguf.py's Phi3MiniModel writes "
          "{} only from rope_scaling and skips it without a word for rope_parameters (llama.cpp #24820); no "
          "llama.cpp flag or gguf-py script adds or changes a tensor",
          source_.source, name);
    return fmt::format(
        "convert {} again: convert_hf_to_gguf.py's Phi3MiniModel writes {} from the config's rope_scaling; no "
        "llama.cpp flag or gguf-py script adds or changes a tensor",
        source_.source, name);
  }

  void check_factor_tensor(std::string_view name, const std::vector<float>& written, const RopeSetup& wanted,
                           const RopeSetup& held_setup) {
    if (written.empty()) return;
    const GgufFactorTensor* held = facts_.factor_tensor(name);
    const std::string config_key = name == "rope_factors_short.weight"  ? wanted.longrope.short_factor.from.pointer
                                   : name == "rope_factors_long.weight" ? wanted.longrope.long_factor.from.pointer
                                                                        : wanted.rope_type_name.from.pointer;
    if (held == nullptr) {
      add(ConversionAspect::scaling, std::string(name), config_key, fmt::format("f32[{}]", written.size()), "absent",
          fmt::format("llama.cpp applies no per-pair factors: {} run plain RoPE with base {}", layers_of(wanted),
                      fmt_number(held_setup.rope_theta.value)),
          convert_tensor_again(name));
      return;
    }
    if (same_values(written, held->values)) {
      out_.tensors_as_converted.emplace_back(name);
      return;
    }
    std::size_t first = 0;
    while (first < written.size() && first < held->values.size() && same_value(written[first], held->values[first]))
      ++first;
    add(ConversionAspect::scaling, std::string(name), config_key,
        first < written.size() ? fmt::format("f32[{}], pair {} = {}", written.size(), first, fmt_number(written[first]))
                               : fmt::format("f32[{}]", written.size()),
        first < held->values.size()
            ? fmt::format("f32[{}], pair {} = {}", held->values.size(), first, fmt_number(held->values[first]))
            : fmt::format("f32[{}]", held->values.size()),
        fmt::format("llama.cpp divides the frequencies by other factors than the config's from pair {} on", first),
        convert_tensor_again(name));
  }

  void check_rotary_dims(const RopeSetup& wanted, const RopeSetup& held) {
    if (wanted.rotary_dim == held.rotary_dim) return;
    std::set<int> widths;
    for (const auto& setup : source_.setups) widths.insert(setup.rotary_dim);
    const std::string dims_key = key("rope.dimension_count");
    const bool stated = held.partial_rotary_factor.from.pointer == gguf_pointer(dims_key);
    std::string remedy;
    if (widths.size() > 1)
      remedy =
          "serve the model with an engine that reads the config (vLLM, SGLang, transformers): GGUF states one "
          "rotary width for every layer";
    else if (stated) remedy = set_in_place(dims_key, std::to_string(wanted.rotary_dim));
    else remedy = convert_again(fmt::format("{} {}", dims_key, wanted.rotary_dim));
    add(ConversionAspect::layout, dims_key, wanted.partial_rotary_factor.from.pointer,
        std::to_string(wanted.rotary_dim), std::to_string(held.rotary_dim),
        widths.size() > 1
            ? fmt::format("the config rotates {} dims on {} and other widths elsewhere; GGUF states one rotary width "
                          "for every layer, so llama.cpp rotates {} there",
                          wanted.rotary_dim, layers_of(wanted), held.rotary_dim)
            : fmt::format("llama.cpp rotates {} dims of each head where the config rotates {}", held.rotary_dim,
                          wanted.rotary_dim),
        std::move(remedy));
  }

  std::string nope_key() const {
    for (std::string_view candidate : {"no_rope_layers", "no_rope_layer_interval", "layer_rope_theta", "layer_types"})
      if (source_.states_key(candidate)) return "/" + std::string(candidate);
    return "";
  }

  // GGUF has no key for NoPE layers: llama.cpp rotates every layer, except in the architectures whose NoPE step it
  // hard-codes (SmolLM3 and Llama 4: every fourth layer).
  void check_nope_layers() {
    const std::vector<int> wanted = source_.nope_layers();
    std::vector<int> runs;
    if (hard_codes_nope_every_fourth(out_.arch))
      for (int i = 0; i < gguf_.num_layers.value; ++i)
        if ((i + 1) % 4 == 0) runs.push_back(i);
    if (wanted == runs) return;
    add(ConversionAspect::layout, "general.architecture", nope_key(),
        wanted.empty() ? std::string("no NoPE layer") : fmt::format("no key for the NoPE layers {}", listed(wanted)),
        fmt::format("{} ({})", out_.arch,
                    runs.empty() ? std::string("llama.cpp hard-codes no NoPE layer for it")
                                 : fmt::format("llama.cpp hard-codes the NoPE layers {}", listed(runs))),
        runs.empty() ? fmt::format("llama.cpp rotates all {} layers, {} of them trained without positions",
                                   gguf_.num_layers.value, wanted.size())
                     : fmt::format("llama.cpp leaves layers {} without RoPE, the config layers {}", listed(runs),
                                   listed(wanted)),
        "serve the model with an engine that reads the config (vLLM, SGLang, transformers): GGUF has no key for NoPE "
        "layers, and llama.cpp hard-codes them per architecture");
  }

  const Model& source_;
  const Model& gguf_;
  const GgufFacts& facts_;
  ConversionAudit out_;
};

}  // namespace

ConversionAudit audit_conversion(const Model& source, const Model& gguf) {
  if (!gguf.gguf || source.gguf || gguf.scheme != PositionScheme::rope || source.scheme != PositionScheme::rope)
    return {gguf.model_type.value, {}, {}};
  return Auditor(source, gguf).run();
}

}  // namespace ropelens
