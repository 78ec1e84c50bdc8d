// The three changes suggest proposes, each the smallest of its kind that covers the target:
// YaRN with factor ceil(target/original) (the convention of Qwen's model cards), linear interpolation with the
// factor target/original rounded up to 0.01, and an NTK-aware rope_theta rounded up to 3 significant digits.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "suggesting.hpp"

namespace ropelens::suggest_detail {
namespace {

using nlohmann::ordered_json;

bool is_rope_parameters(const std::string& pointer) { return pointer.find("rope_parameters") != std::string::npos; }

bool is_rope_dict_key(const std::string& pointer) {
  return pointer.find("/rope_scaling/") != std::string::npos || is_rope_parameters(pointer);
}

bool inside(const std::string& pointer, const std::string& dict) { return pointer.rfind(dict + "/", 0) == 0; }

// Keys of the old dict that are not about scaling and must survive its replacement.
void carry_over(const RopeSetup& setup, const std::string& pointer, ordered_json& dict) {
  if (is_rope_parameters(pointer)) dict["rope_theta"] = setup.rope_theta.value;
  if (setup.partial_rotary_factor.from.origin == Origin::config &&
      inside(setup.partial_rotary_factor.from.pointer, pointer))
    dict["partial_rotary_factor"] = setup.partial_rotary_factor.value;
  if (!setup.mrope_section.empty()) dict["mrope_section"] = setup.mrope_section;
  if (setup.mrope_interleaved) dict["mrope_interleaved"] = true;
}

// A YaRN dict replacing a YaRN dict keeps its shape parameters (betas, truncate, mscale pair).
void carry_yarn_shape(const RopeSetup& setup, ordered_json& dict) {
  if (setup.type != RopeType::yarn) return;
  const YarnParams& y = setup.yarn;
  if (y.beta_fast.from.origin == Origin::config) dict["beta_fast"] = y.beta_fast.value;
  if (y.beta_slow.from.origin == Origin::config) dict["beta_slow"] = y.beta_slow.value;
  if (y.truncate.from.origin == Origin::config) dict["truncate"] = y.truncate.value;
  if (y.mscale) dict["mscale"] = y.mscale->value;
  if (y.mscale_all_dim) dict["mscale_all_dim"] = y.mscale_all_dim->value;
}

void add_edit(Suggestion& suggestion, const std::string& pointer, const ordered_json& value) {
  if (pointer.empty() || pointer.front() != '/') return;  // a GGUF key ("gguf:…"): that change is llama.cpp flags
  for (const auto& edit : suggestion.edits)
    if (edit.pointer == pointer) return;  // a dict shared by several setups is replaced once
  suggestion.edits.push_back({pointer, nlohmann::json::parse(value.dump())});
  suggestion.config_fragment[ordered_json::json_pointer(pointer)] = value;
}

// A change is complete only when the config also declares the length it reaches: without it CTX202 fires
// and engines that read max_position_embeddings stop short of the target.
void declare_length(const Plan& plan, Suggestion& suggestion, std::int64_t tokens) {
  if (plan.model->max_position_embeddings.value >= tokens) return;
  add_edit(suggestion, length_pointer(*plan.model), ordered_json(tokens));
}

std::int64_t scaled_length(const Plan& plan, double factor) {
  const auto scaled = static_cast<std::int64_t>(std::ceil(static_cast<double>(plan.original_tokens) * factor - 1e-9));
  return std::max(plan.target_tokens, scaled);
}

// vLLM and SGLang derive their length as max_position_embeddings × factor for linear scaling (ROPE102), so
// the linear form declares the pre-scaling length and states it as original_max_position_embeddings at the
// top level, where those engines do not read it and ropelens does: each engine multiplies once.
void declare_prescaling_length(const Plan& plan, Suggestion& suggestion) {
  const Model& model = *plan.model;
  if (model.max_position_embeddings.value != plan.original_tokens)
    add_edit(suggestion, length_pointer(model), ordered_json(plan.original_tokens));
  const auto& stated = model.original_max_position_embeddings;
  const bool stated_at_top = stated && stated->from.origin == Origin::config && !is_rope_dict_key(stated->from.pointer);
  if (!stated_at_top || stated->value != plan.original_tokens)
    add_edit(suggestion, model.text_pointer + "/original_max_position_embeddings", ordered_json(plan.original_tokens));
}

Suggestion scaling_change(const Plan& plan, SuggestMethod method, double factor) {
  Suggestion suggestion;
  suggestion.method = method;
  suggestion.value = factor;
  suggestion.config_fragment = ordered_json::object();
  for (int index : plan.setups) {
    const RopeSetup& setup = plan.model->setups[static_cast<std::size_t>(index)];
    const std::string pointer = dict_pointer(*plan.model, setup);
    ordered_json dict;
    dict["rope_type"] = method == SuggestMethod::yarn ? "yarn" : "linear";
    dict["factor"] = factor;
    if (method == SuggestMethod::yarn) {
      dict["original_max_position_embeddings"] = plan.original_tokens;
      carry_yarn_shape(setup, dict);
    }
    carry_over(setup, pointer, dict);
    add_edit(suggestion, pointer, dict);
  }
  if (method == SuggestMethod::linear) declare_prescaling_length(plan, suggestion);
  else declare_length(plan, suggestion, scaled_length(plan, factor));
  return suggestion;
}

double round_up(double value, double step) { return std::ceil(value / step - 1e-9) * step; }

double round_up_significant(double value, int digits) {
  const double step = std::pow(10.0, std::floor(std::log10(value)) - (digits - 1));
  return round_up(value, step);
}

std::string theta_pointer(const Model& model, const RopeSetup& setup) {
  if (setup.rope_theta.from.origin == Origin::config) return setup.rope_theta.from.pointer;
  if (is_rope_parameters(setup.pointer)) return setup.pointer + "/rope_theta";
  return model.text_pointer + "/rope_theta";
}

// θ' = θ·s^(d/(d−2)) divides pair i by s^(2i/(d−2)); a pair never completing a turn in training needs
// s^(2i/(d−2)) ≥ (T−1)/(tolerance·(L−1)). The first such pair binds.
double closed_form_ntk_scale(const Plan& plan, int setup_index) {
  const RopeSetup& setup = plan.model->setups[static_cast<std::size_t>(setup_index)];
  const SetupAudit& seen = plan.trained.setups[static_cast<std::size_t>(setup_index)];
  const double needed_ratio = static_cast<double>(plan.target_tokens - 1) /
                              (kOutOfRangeTolerance * static_cast<double>(plan.original_tokens - 1));
  const int d = setup.rotary_dim;
  double scale = 1.0;
  for (const auto& pair : seen.pairs)
    if (pair.pair > 0 && pair.seen_rad < kTwoPi)
      scale = std::max(scale, std::pow(needed_ratio, static_cast<double>(d - 2) / (2.0 * pair.pair)));
  return scale;
}

// Searches upward from the closed form (which ignores existing scaling) until the audit of an in-memory edit
// passes; suggest.cpp then verifies the real edit on the re-normalized config.
double covering_theta(const Plan& plan, int setup_index) {
  const RopeSetup& setup = plan.model->setups[static_cast<std::size_t>(setup_index)];
  double scale = closed_form_ntk_scale(plan, setup_index);
  for (int attempt = 0; attempt < 200; ++attempt, scale *= 1.02) {
    const double theta = round_up_significant(ntk_aware_base(setup.rope_theta.value, setup.rotary_dim, scale), 3);
    Model edited = *plan.model;
    for (auto& s : edited.setups)
      if (s.rope_theta.from.pointer == setup.rope_theta.from.pointer) s.rope_theta.value = theta;
    edited.setups[static_cast<std::size_t>(setup_index)].rope_theta.value = theta;
    if (still_out_of_range(plan, audit_model(edited, plan.target_tokens, verification_history(plan))).empty())
      return theta;
  }
  return round_up_significant(ntk_aware_base(setup.rope_theta.value, setup.rotary_dim, scale), 3);
}

// Llama 3 scaling keeps its bands and original length: the factor grows with the target, by the share of the
// declared (fine-tuned) length it adds, rounded up to a whole factor and raised until the audit covers it.
double covering_llama3_factor(const Plan& plan, int setup_index) {
  const RopeSetup& setup = plan.model->setups[static_cast<std::size_t>(setup_index)];
  const double now = setup.factor ? setup.factor->value : 1.0;
  double factor = std::ceil(now * static_cast<double>(plan.target_tokens) /
                                static_cast<double>(plan.model->max_position_embeddings.value) -
                            1e-9);
  for (int attempt = 0; attempt < 64; ++attempt, factor += std::max(1.0, std::floor(factor / 8.0))) {
    Model edited = *plan.model;
    auto& s = edited.setups[static_cast<std::size_t>(setup_index)];
    if (s.factor) s.factor->value = factor;
    if (still_out_of_range(plan, audit_model(edited, plan.target_tokens, verification_history(plan))).empty()) break;
  }
  return factor;
}

}  // namespace

bool has_llama3_setup(const Plan& plan) {
  for (int index : plan.setups)
    if (plan.model->setups[static_cast<std::size_t>(index)].type == RopeType::llama3) return true;
  return false;
}

Suggestion llama3_factor_change(const Plan& plan) {
  Suggestion suggestion;
  suggestion.method = SuggestMethod::llama3_factor;
  suggestion.config_fragment = ordered_json::object();
  for (int index : plan.setups) {
    const RopeSetup& setup = plan.model->setups[static_cast<std::size_t>(index)];
    if (setup.type != RopeType::llama3) continue;
    const double factor = covering_llama3_factor(plan, index);
    if (suggestion.value == 0.0) {
      suggestion.value = factor;
      suggestion.change = fmt::format("llama3 factor {:.10g} → {:.10g}, the same original length and bands",
                                      setup.factor ? setup.factor->value : 1.0, factor);
    }
    // The whole dict: an engine override of rope_scaling replaces it, so a lone factor would drop the type.
    const std::string pointer = dict_pointer(*plan.model, setup);
    ordered_json dict;
    dict["rope_type"] = "llama3";
    dict["factor"] = factor;
    dict["low_freq_factor"] = setup.llama3.low_freq_factor.value;
    dict["high_freq_factor"] = setup.llama3.high_freq_factor.value;
    dict["original_max_position_embeddings"] = plan.original_tokens;
    carry_over(setup, pointer, dict);
    add_edit(suggestion, pointer, dict);
  }
  declare_length(plan, suggestion, plan.target_tokens);
  return suggestion;
}

std::string dict_pointer(const Model& model, const RopeSetup& setup) {
  if (!setup.pointer.empty()) return setup.pointer;
  return model.text_pointer + "/rope_scaling";
}

Suggestion yarn_change(const Plan& plan) {
  const auto factor = static_cast<double>((plan.target_tokens + plan.original_tokens - 1) / plan.original_tokens);
  Suggestion suggestion = scaling_change(plan, SuggestMethod::yarn, factor);
  suggestion.change =
      fmt::format("YaRN with factor {:.10g} on an original length of {} tokens", factor, plan.original_tokens);
  return suggestion;
}

Suggestion linear_change(const Plan& plan) {
  const double factor =
      round_up(static_cast<double>(plan.target_tokens) / static_cast<double>(plan.original_tokens), 0.01);
  Suggestion suggestion = scaling_change(plan, SuggestMethod::linear, factor);
  suggestion.change = fmt::format("linear interpolation (position interpolation) with factor {:.10g}", factor);
  return suggestion;
}

Suggestion ntk_base_change(const Plan& plan) {
  Suggestion suggestion;
  suggestion.method = SuggestMethod::ntk_base;
  suggestion.config_fragment = ordered_json::object();
  std::vector<std::string> parts;
  for (int index : plan.setups) {
    const RopeSetup& setup = plan.model->setups[static_cast<std::size_t>(index)];
    const std::string pointer = theta_pointer(*plan.model, setup);
    const double theta = covering_theta(plan, index);
    if (suggestion.value == 0.0) suggestion.value = theta;
    add_edit(suggestion, pointer, ordered_json(theta));
    parts.push_back(fmt::format("rope_theta {:.10g} → {:.10g}", setup.rope_theta.value, theta));
  }
  declare_length(plan, suggestion, plan.target_tokens);
  std::sort(parts.begin(), parts.end());
  parts.erase(std::unique(parts.begin(), parts.end()), parts.end());
  suggestion.change = fmt::format("NTK-aware base: {}", fmt::join(parts, ", "));
  return suggestion;
}

}  // namespace ropelens::suggest_detail
