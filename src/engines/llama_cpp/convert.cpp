// What convert_hf_to_gguf.py writes (TextModel.set_gguf_parameters @a458664f, LlamaModel.generate_extra_tensors,
// Phi3MiniModel, DeepseekV2Model), and what llama.cpp's loader then holds. A GGUF input is taken as is.
#include <algorithm>
#include <cmath>
#include <set>

#include <fmt/format.h>

#include "llama_cpp.hpp"

namespace ropelens::engine_detail {
namespace {

constexpr std::int64_t kConverterLlama3DefaultOriginal = 8192;

std::string gguf_arch(const Model& model) {
  if (is_deepseek_family(model)) return "deepseek2";
  if (model.model_type.value == "ministral3") return "mistral3";
  return model.model_type.value.empty() ? "llama" : model.model_type.value;
}

class Converter {
 public:
  Converter(const Model& model, GgufConversion& out) : model_(model), out_(out) {}

  GgufRope convert(const RopeSetup& setup) {
    GgufRope rope = plain(setup);
    switch (setup.type) {
      case RopeType::default_rope: break;
      case RopeType::linear: linear(setup, rope); break;
      case RopeType::dynamic: dynamic(setup); break;
      case RopeType::yarn: yarn(setup, rope); break;
      case RopeType::longrope: longrope(setup, rope); break;
      case RopeType::llama3: llama3(setup, rope); break;
      case RopeType::proportional:
        note_once("proportional",
                  "proportional RoPE (Gemma 4) is not modelled for llama.cpp: shown as transformers "
                  "computes it");
        break;
    }
    if (!setup.mrope_section.empty())
      key("rope.dimension_sections", fmt::format("[{}]", fmt::join(setup.mrope_section, ", ")));
    return rope;
  }

 private:
  GgufRope plain(const RopeSetup& setup) const {
    GgufRope rope;
    rope.n_ctx_train = model_.max_position_embeddings.value;
    rope.n_ctx_orig_yarn = rope.n_ctx_train;
    rope.freq_base = setup.rope_theta.value;
    rope.n_rot = setup.rotary_dim;
    return rope;
  }

  void key(const std::string& name, const std::string& value) {
    auto same = [&](const auto& kv) { return kv.first == name; };
    if (std::none_of(out_.keys.begin(), out_.keys.end(), same)) out_.keys.emplace_back(name, value);
  }

  void lose(const std::string& pointer, const std::string& what) {
    auto same = [&](const LostSetting& l) { return l.pointer == pointer && l.what == what; };
    if (std::none_of(out_.lost.begin(), out_.lost.end(), same)) out_.lost.push_back({pointer, what});
  }

  void note_once(const std::string& tag, const std::string& text) {
    if (noted_.insert(tag).second) out_.notes.push_back(text);
  }

  void linear(const RopeSetup& setup, GgufRope& rope) {
    rope.scaling_type = "linear";
    rope.factor = static_cast<float>(stated_factor(setup));
    key("rope.scaling.type", "linear");
    key("rope.scaling.factor", fmt_number(stated_factor(setup)));
  }

  // GGUF has no dynamic type (RopeScalingType: none, linear, yarn, longrope); the converters write nothing for it
  // (TextModel.set_gguf_parameters, and InternLM2Model writes only linear: conversion/internlm.py @5535795b).
  void dynamic(const RopeSetup& setup) {
    lose(setup.rope_type_name.from.pointer,
         fmt::format("dynamic NTK (factor {}) is not written: GGUF has no dynamic scaling type and the converter "
                     "writes no key for it, so the GGUF runs plain RoPE with base {} at every length",
                     fmt_number(stated_factor(setup)), fmt_number(setup.rope_theta.value)));
  }

  void yarn(const RopeSetup& setup, GgufRope& rope) {
    rope.scaling_type = "yarn";
    rope.factor = static_cast<float>(stated_factor(setup));
    key("rope.scaling.type", "yarn");
    key("rope.scaling.factor", fmt_number(stated_factor(setup)));
    if (original_given_in_config(setup)) {
      rope.n_ctx_orig_yarn = setup.original_max_position_embeddings->value;
      key("rope.scaling.original_context_length", std::to_string(rope.n_ctx_orig_yarn));
    } else if (!out_.failure) {
      out_.failure =
          "KeyError: 'original_max_position_embeddings' (convert_hf_to_gguf.py reads it from the yarn "
          "dict); a hand-made file without the key makes llama.cpp use context_length instead";
    }
    if (setup.yarn.beta_fast.from.origin == Origin::config) {
      rope.beta_fast = static_cast<float>(setup.yarn.beta_fast.value);
      key("rope.scaling.yarn_beta_fast", fmt_number(setup.yarn.beta_fast.value));
    }
    if (setup.yarn.beta_slow.from.origin == Origin::config) {
      rope.beta_slow = static_cast<float>(setup.yarn.beta_slow.value);
      key("rope.scaling.yarn_beta_slow", fmt_number(setup.yarn.beta_slow.value));
    }
    write_log_multiplier(setup, rope);
    if (setup.yarn.attention_factor)
      key("rope.scaling.yarn_attn_factor", fmt_number(setup.yarn.attention_factor->value));
    if (!setup.yarn.truncate.value) {
      const RopeTable table = compute_rope_table(setup);
      RopeSetup truncated = setup;
      truncated.yarn.truncate.value = true;
      const RopeTable runs = compute_rope_table(truncated);
      int pairs = 0;
      double worst = 1.0;
      for (std::size_t i = 0; i < table.inv_freq.size() && i < runs.inv_freq.size(); ++i) {
        if (relative_difference(table.inv_freq[i], runs.inv_freq[i]) <= kEngineRelativeThreshold) continue;
        ++pairs;
        if (table.inv_freq[i] > 0 && runs.inv_freq[i] > 0)
          worst = std::max({worst, runs.inv_freq[i] / table.inv_freq[i], table.inv_freq[i] / runs.inv_freq[i]});
      }
      lose(setup.yarn.truncate.from.pointer,
           fmt::format("truncate false cannot be stored: llama.cpp (ggml rope_yarn_corr_dims) always floors and ceils "
                       "the correction range ({}, {}) to ({}, {}), so a converted GGUF runs {} pairs with frequencies "
                       "up to ×{:.4g} off the config's (the rounding vllm-project/vllm#27722 found behind high logprob "
                       "errors, fixed there by PR #28244)",
                       fmt_number(table.correction_low.value_or(0.0)), fmt_number(table.correction_high.value_or(0.0)),
                       fmt_number(std::floor(table.correction_low.value_or(0.0))),
                       fmt_number(std::ceil(table.correction_high.value_or(0.0))), pairs, worst));
    }
    check_yarn_magnitude(setup, rope);
  }

  // Only DeepSeek2 (0.1·mscale_all_dim, legacy) and Ministral3 (as is) write yarn_log_multiplier.
  void write_log_multiplier(const RopeSetup& setup, GgufRope& rope) {
    if (!setup.yarn.mscale_all_dim) return;
    const double all_dim = setup.yarn.mscale_all_dim->value;
    if (out_.arch == "deepseek2") {
      key("rope.scaling.yarn_log_multiplier",
          fmt::format("{} (0.1 × mscale_all_dim; the loader divides by 0.1)", fmt_number(0.1 * all_dim)));
      rope.yarn_log_mul = static_cast<float>(0.1 * all_dim) / 0.1f;
    } else if (out_.arch == "mistral3") {
      key("rope.scaling.yarn_log_multiplier", fmt_number(all_dim));
      rope.yarn_log_mul = static_cast<float>(all_dim);
    }
  }

  void check_yarn_magnitude(const RopeSetup& setup, const GgufRope& rope) {
    const double wanted = compute_rope_table(setup).attention_factor;
    const double runs = llama_cpp_rope_magnitude(rope, out_.arch == "deepseek2");
    if (relative_difference(wanted, runs) <= kEngineRelativeThreshold) return;
    std::string pointer = setup.pointer;
    std::string cause;
    if (setup.yarn.attention_factor) {
      pointer = setup.yarn.attention_factor->from.pointer;
      cause = fmt::format(
          "attention_factor {} is written as yarn_attn_factor, but llama.cpp replaces it with its own "
          "mscale (llama-context.cpp, PR #17945)",
          fmt_number(setup.yarn.attention_factor->value));
    } else if (out_.arch == "deepseek2" && setup.yarn.mscale && setup.yarn.mscale_all_dim) {
      pointer = setup.yarn.mscale->from.pointer;
      cause = fmt::format("mscale {} cannot be stored: llama.cpp's deepseek2 path assumes mscale = mscale_all_dim ({})",
                          fmt_number(setup.yarn.mscale->value), fmt_number(setup.yarn.mscale_all_dim->value));
    } else if (setup.yarn.mscale && setup.yarn.mscale->value != 1.0) {
      pointer = setup.yarn.mscale->from.pointer;
      cause =
          fmt::format("mscale {} cannot be stored: llama.cpp assumes mscale 1{}", fmt_number(setup.yarn.mscale->value),
                      out_.arch == "deepseek2" ? " (deepseek2: mscale = mscale_all_dim)" : "");
    } else if (setup.yarn.mscale_all_dim) {
      pointer = setup.yarn.mscale_all_dim->from.pointer;
      cause = fmt::format(
          "mscale_all_dim {} is not written for architecture '{}' (only deepseek2 and mistral3 write "
          "yarn_log_multiplier)",
          fmt_number(setup.yarn.mscale_all_dim->value), out_.arch);
    } else {
      cause = "the YaRN magnitude cannot be stored";
    }
    if (model_.read_as == "deepseek_v4")
      cause =
          "guessed (llama.cpp's DeepSeek-V4 converter was not read; the generic YaRN conversion is assumed): " + cause;
    lose(pointer, fmt::format("{}: magnitude {} instead of {}", cause, fmt_number(runs), fmt_number(wanted)));
  }

  void longrope(const RopeSetup& setup, GgufRope& rope) {
    rope.scaling_type = "longrope";
    const int pairs = setup.rotary_dim / 2;
    for (double v : setup.longrope.long_factor.value) rope.long_factors.push_back(static_cast<float>(v));
    for (double v : setup.longrope.short_factor.value) rope.short_factors.push_back(static_cast<float>(v));
    rope.n_ctx_orig_yarn = original_or_declared(setup);
    const double original = static_cast<double>(rope.n_ctx_orig_yarn);
    const double scale = static_cast<double>(setup.max_position_embeddings.value) / original;
    const double attn = scale <= 1.0 ? 1.0 : std::sqrt(1.0 + std::log(scale) / std::log(original));
    rope.rope_attn_factor = static_cast<float>(attn);
    key("rope.scaling.type", "longrope");
    key("rope.scaling.attn_factor", fmt_number(attn));
    key("rope.scaling.original_context_length", std::to_string(rope.n_ctx_orig_yarn));
    if (out_.tensors.empty()) {
      out_.tensors.push_back(fmt::format("rope_factors_long.weight f32[{}]", pairs));
      out_.tensors.push_back(fmt::format("rope_factors_short.weight f32[{}]", pairs));
    }
    if (setup.longrope.attention_factor &&
        relative_difference(setup.longrope.attention_factor->value, attn) > kEngineRelativeThreshold)
      lose(setup.longrope.attention_factor->from.pointer,
           fmt::format("attention_factor {} is not read: Phi3MiniModel writes attn_factor {} from max/original",
                       fmt_number(setup.longrope.attention_factor->value), fmt_number(attn)));
  }

  // LlamaModel.generate_extra_tensors reads the top-level original_max_position_embeddings, default 8192.
  std::pair<std::int64_t, std::string> converter_original_length() const {
    const auto& top = model_.original_max_position_embeddings;
    if (top && top->from.pointer.find("rope_") == std::string::npos)
      return {top->value, fmt::format("top-level {}", top->from.pointer)};
    return {kConverterLlama3DefaultOriginal, "the converter's default 8192"};
  }

  void llama3(const RopeSetup& setup, GgufRope& rope) {
    auto [used, from] = converter_original_length();
    rope.rope_freqs =
        converter_llama3_divisors(setup.rope_theta.value, setup.rotary_dim, stated_factor(setup),
                                  setup.llama3.low_freq_factor.value, setup.llama3.high_freq_factor.value, used);
    out_.tensors.push_back(fmt::format("rope_freqs.weight f32[{}] (llama3 divisors, original length {} from {})",
                                       setup.rotary_dim / 2, used, from));
    const std::int64_t wanted = original_or_declared(setup);
    if (wanted != used)
      lose(
          setup.original_max_position_embeddings ? setup.original_max_position_embeddings->from.pointer : setup.pointer,
          fmt::format("original_max_position_embeddings {} is not read: rope_freqs is computed with {} ({})", wanted,
                      used, from));
  }

  const Model& model_;
  GgufConversion& out_;
  std::set<std::string> noted_;
};

GgufRope from_file(const Model& model, const RopeSetup& setup) {
  GgufRope rope;
  rope.n_ctx_train = model.max_position_embeddings.value;
  rope.n_ctx_orig_yarn = original_or_declared(setup);
  rope.freq_base = setup.rope_theta.value;
  rope.n_rot = setup.rotary_dim;
  if (setup.type == RopeType::linear) {
    rope.scaling_type = "linear";
    rope.factor = static_cast<float>(stated_factor(setup));
  } else if (setup.type == RopeType::yarn) {
    rope.scaling_type = "yarn";
    rope.factor = static_cast<float>(stated_factor(setup));
    rope.beta_fast = static_cast<float>(setup.yarn.beta_fast.value);
    rope.beta_slow = static_cast<float>(setup.yarn.beta_slow.value);
    if (setup.yarn.mscale_all_dim) rope.yarn_log_mul = static_cast<float>(setup.yarn.mscale_all_dim->value);
  } else if (setup.type == RopeType::longrope) {
    rope.scaling_type = "longrope";
    for (double v : setup.longrope.long_factor.value) rope.long_factors.push_back(static_cast<float>(v));
    for (double v : setup.longrope.short_factor.value) rope.short_factors.push_back(static_cast<float>(v));
    if (setup.longrope.attention_factor)
      rope.rope_attn_factor = static_cast<float>(setup.longrope.attention_factor->value);
  }
  return rope;
}

}  // namespace

// torch float32, as LlamaModel.generate_extra_tensors computes it: freqs, wavelengths and the smoothing blend.
std::vector<float> converter_llama3_divisors(double base, int dim, double factor, double low, double high,
                                             std::int64_t original_tokens) {
  std::vector<float> divisors;
  const float two_pi = static_cast<float>(kTwoPi);
  const float original = static_cast<float>(original_tokens);
  const float low_wavelen = static_cast<float>(static_cast<double>(original_tokens) / low);
  const float high_wavelen = static_cast<float>(static_cast<double>(original_tokens) / high);
  for (int i = 0; i < dim / 2; ++i) {
    const float exponent = static_cast<float>(2 * i) / static_cast<float>(dim);
    const float freq = 1.0f / std::pow(static_cast<float>(base), exponent);
    const float wavelen = two_pi / freq;
    if (wavelen < high_wavelen) {
      divisors.push_back(1.0f);
    } else if (wavelen > low_wavelen) {
      divisors.push_back(static_cast<float>(factor));
    } else {
      const float smooth = (original / wavelen - static_cast<float>(low)) / static_cast<float>(high - low);
      divisors.push_back(1.0f / ((1.0f - smooth) / static_cast<float>(factor) + smooth));
    }
  }
  return divisors;
}

GgufPlan plan_gguf(const Model& model) {
  GgufPlan plan;
  if (read_from_gguf(model)) {
    plan.conversion.from_gguf = true;
    plan.conversion.arch = model.model_type.value;
    for (const auto& setup : model.setups) plan.ropes.push_back(from_file(model, setup));
    return plan;
  }
  plan.conversion.arch = gguf_arch(model);
  plan.conversion.keys.emplace_back("context_length", std::to_string(model.max_position_embeddings.value));
  Converter converter(model, plan.conversion);
  for (const auto& setup : model.setups) plan.ropes.push_back(converter.convert(setup));
  return plan;
}

}  // namespace ropelens::engine_detail
