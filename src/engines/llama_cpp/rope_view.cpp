// llama.cpp runtime on the converted file: src/llama-context.cpp (YaRN magnitude arithmetic since PR #17945),
// src/llama-model.cpp::get_rope_factors (LongRoPE per context), src/models/deepseek2.cpp @07bede6a (kq_scale),
// and ggml @d99724f2 (ggml_rope_cache_init, rope_yarn, ggml_rope_yarn_corr_dims), all float32 as there.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "llama_cpp.hpp"

namespace ropelens {

std::vector<float> ggml_fp32_theta_iteration(double base, int n_dims, int pairs) {
  const float theta_scale = std::pow(static_cast<float>(base), -2.0f / static_cast<float>(n_dims));
  std::vector<float> thetas;
  float theta = 1.0f;  // position 1
  for (int i = 0; i < pairs; ++i) {
    thetas.push_back(theta);
    theta *= theta_scale;
  }
  return thetas;
}

namespace engine_detail {
namespace {

constexpr float kPi = 3.14159265358979323846f;

float get_mscale(float scale, float mscale) { return scale <= 1.0f ? 1.0f : 0.1f * mscale * std::log(scale) + 1.0f; }

float freq_scale_of(const GgufRope& rope) {
  if (rope.scaling_type == "none" || rope.factor == 0.0f) return 1.0f;
  return 1.0f / rope.factor;
}

bool yarn_active(const GgufRope& rope) { return rope.scaling_type == "yarn"; }  // ext_factor 1, else 0

// cparams.yarn_attn_factor after the llama_context constructor: the attn_factor handed to ggml_rope_ext.
float context_attn_factor(const GgufRope& rope, bool deepseek2) {
  float attn = 1.0f;
  if (yarn_active(rope)) {
    const float factor = 1.0f / freq_scale_of(rope);
    if (rope.yarn_log_mul != 0.0f) {
      float mscale = 1.0f;  // llama.cpp assumes mscale 1
      const float all_dims = rope.yarn_log_mul;
      if (deepseek2 && all_dims != 1.0f) mscale = all_dims;
      attn = get_mscale(factor, mscale) / get_mscale(factor, all_dims);
    } else {
      attn = get_mscale(factor, 1.0f);
    }
    attn *= 1.0f / (1.0f + 0.1f * std::log(factor));  // cancels the kernel's own mscale
  }
  return attn * rope.rope_attn_factor;
}

// deepseek2.cpp: attn_factor_org undoes the cancellation, mscale adds the log multiplier; kq_scale = mscale²/√d_k.
double deepseek2_kq_multiplier(const GgufRope& rope) {
  const float attn = context_attn_factor(rope, true);
  const float inverse_scale = 1.0f / freq_scale_of(rope);
  const float original_attn = attn * (1.0f + 0.1f * std::log(inverse_scale));
  const float mscale = original_attn * (1.0f + 0.1f * rope.yarn_log_mul * std::log(inverse_scale));
  return static_cast<double>(mscale * mscale);
}

struct CorrectionDims {
  float low = 0.0f;
  float high = 0.0f;
};

float corr_dim(int n_dims, std::int64_t n_ctx_orig, float n_rot, float base) {
  return static_cast<float>(n_dims) * std::log(static_cast<float>(n_ctx_orig) / (n_rot * 2.0f * kPi)) /
         (2.0f * std::log(base));
}

// Always floored and ceiled: the kernel has no truncate=false.
CorrectionDims corr_dims(const GgufRope& rope) {
  const float base = static_cast<float>(rope.freq_base);
  const float start = std::floor(corr_dim(rope.n_rot, rope.n_ctx_orig_yarn, rope.beta_fast, base));
  const float end = std::ceil(corr_dim(rope.n_rot, rope.n_ctx_orig_yarn, rope.beta_slow, base));
  return {std::max(0.0f, start), std::min(static_cast<float>(rope.n_rot - 1), end)};
}

float yarn_ramp(CorrectionDims dims, int pair) {
  const float y = (static_cast<float>(pair) - dims.low) / std::max(0.001f, dims.high - dims.low);
  return 1.0f - std::min(1.0f, std::max(0.0f, y));
}

const std::vector<float>* freq_factors(const GgufRope& rope, std::int64_t n_ctx, bool& long_factors) {
  if (!rope.rope_freqs.empty()) return &rope.rope_freqs;
  if (rope.scaling_type != "longrope") return nullptr;
  long_factors = n_ctx > rope.n_ctx_orig_yarn;
  const auto& list = long_factors ? rope.long_factors : rope.short_factors;
  return list.empty() ? nullptr : &list;
}

std::vector<double> runtime_inv_freq(const GgufRope& rope, std::int64_t n_ctx, bool& long_factors) {
  const int pairs = rope.n_rot / 2;
  const std::vector<float> thetas = ggml_fp32_theta_iteration(rope.freq_base, rope.n_rot, pairs);
  const std::vector<float>* factors = freq_factors(rope, n_ctx, long_factors);
  const float freq_scale = freq_scale_of(rope);
  const CorrectionDims dims = corr_dims(rope);
  std::vector<double> inv(static_cast<std::size_t>(pairs));
  for (int i = 0; i < pairs; ++i) {
    const auto k = static_cast<std::size_t>(i);
    const float divisor = factors && k < factors->size() ? (*factors)[k] : 1.0f;
    const float extrapolated = thetas[k] / divisor;
    const float interpolated = freq_scale * extrapolated;
    float theta = interpolated;
    if (yarn_active(rope)) {
      const float mix = yarn_ramp(dims, i);
      theta = interpolated * (1.0f - mix) + extrapolated * mix;
    }
    inv[k] = static_cast<double>(theta);
  }
  return inv;
}

EngineSetupView runtime_view(const Model& model, const RopeSetup& setup, const GgufRope& rope, int index,
                             std::int64_t n_ctx, bool deepseek2) {
  EngineSetupView view;
  view.setup = index;
  if (setup.type == RopeType::proportional) {
    view = from_table(index, compute_rope_table(setup));
    view.method = setup.type;
    view.notes.push_back(Note("not modelled for llama.cpp: transformers' values shown"));
    return view;
  }
  view.method = rope.scaling_type == "yarn"       ? RopeType::yarn
                : rope.scaling_type == "linear"   ? RopeType::linear
                : rope.scaling_type == "longrope" ? RopeType::longrope
                : !rope.rope_freqs.empty()        ? RopeType::llama3
                                                  : RopeType::default_rope;
  view.inv_freq = runtime_inv_freq(rope, n_ctx, view.long_factors);
  view.rope_magnitude = llama_cpp_rope_magnitude(rope, deepseek2);
  view.factor = static_cast<double>(1.0f / freq_scale_of(rope));
  view.notes.push_back(Note("θ iterated in float32 (ggml_rope_cache_init: θ *= {:.6g}^(−2/{}))",
                            static_cast<double>(rope.freq_base), rope.n_rot));
  if (setup.type == RopeType::dynamic) view.effective_theta = rope.freq_base;
  if (yarn_active(rope)) {
    const CorrectionDims dims = corr_dims(rope);
    view.correction_low = static_cast<double>(dims.low);
    view.correction_high = static_cast<double>(dims.high);
    view.notes.push_back(Note("kernel YaRN on n_ctx_orig_yarn {}: correction range ({:.6g}, {:.6g}), always truncated",
                              rope.n_ctx_orig_yarn, view.correction_low.value_or(0.0),
                              view.correction_high.value_or(0.0)));
  }
  if (rope.scaling_type == "longrope") {
    view.factor_switch = FactorSwitch::per_context;
    view.notes.push_back(Note("LongRoPE factors chosen per context: long when n_ctx > {} ({} at n_ctx {})",
                              rope.n_ctx_orig_yarn, view.long_factors ? "long" : "short", n_ctx));
  }
  if (deepseek2 && is_mla(model)) {
    view.softmax_multiplier = deepseek2_kq_multiplier(rope);
    view.notes.push_back(
        Note("deepseek2 kq_scale = mscale²/√{} = {:.6g}/√{} (yarn_log_multiplier {:.6g} after the "
             "loader's /0.1, [TAG_DEEPSEEK2_YARN_LOG_MUL_FIX])",
             mla_key_dim(model, setup), view.softmax_multiplier, mla_key_dim(model, setup),
             static_cast<double>(rope.yarn_log_mul)));
  }
  return view;
}

LengthLimit llama_cpp_length_limit(const Model& model, std::int64_t target_tokens) {
  LengthLimit limit;
  const auto trained = model.max_position_embeddings.value;
  limit.limit_tokens = trained;
  limit.default_tokens = trained;
  limit.derivation =
      fmt::format("n_ctx_train = context_length = max_position_embeddings {} (unscaled); -c 0 uses it", trained);
  limit.length_key = model.max_position_embeddings.from.key();
  limit.beyond = LimitAction::warning;
  if (target_tokens > trained)
    limit.message =
        fmt::format("n_ctx_seq ({}) > n_ctx_train ({}) -- possible training context overflow", target_tokens, trained);
  limit.override_how = "none needed: llama.cpp only warns";
  return limit;
}

}  // namespace

double llama_cpp_rope_magnitude(const GgufRope& rope, bool deepseek2) {
  float magnitude = context_attn_factor(rope, deepseek2);
  if (yarn_active(rope)) magnitude *= 1.0f + 0.1f * std::log(1.0f / freq_scale_of(rope));
  return static_cast<double>(magnitude);
}

EngineView llama_cpp_view(const Model& model, EngineVersion version, std::int64_t target_tokens) {
  EngineView view = empty_view(model, version);
  view.notes.clear();
  view.follows = "convert_hf_to_gguf.py @a458664f, llama-context.cpp (PR #17945), ggml @d99724f2 (float32)";
  const GgufPlan plan = plan_gguf(model);
  view.gguf = plan.conversion;
  view.length = llama_cpp_length_limit(model, target_tokens);
  const bool deepseek2 = plan.conversion.arch == "deepseek2";
  for (std::size_t i = 0; i < model.setups.size(); ++i)
    view.setups.push_back(
        runtime_view(model, model.setups[i], plan.ropes[i], static_cast<int>(i), target_tokens, deepseek2));
  return view;
}

}  // namespace engine_detail

double llama_cpp_deepseek2_kq_multiplier(double yarn_log_multiplier, double factor) {
  engine_detail::GgufRope rope;
  rope.scaling_type = "yarn";
  rope.factor = static_cast<float>(factor);
  rope.yarn_log_mul = static_cast<float>(yarn_log_multiplier);
  return engine_detail::deepseek2_kq_multiplier(rope);
}

}  // namespace ropelens
