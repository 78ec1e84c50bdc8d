// suggest: audit at the target, build one change per method, verify each by loading the edited config and
// auditing it again, and describe what the change does to short inputs and to each engine.
#include "ropelens/suggest.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "ropelens/engine_comparison.hpp"
#include "ropelens/normalize.hpp"
#include "suggesting.hpp"

namespace ropelens {

std::string_view to_string(SuggestMethod method) {
  switch (method) {
    case SuggestMethod::yarn: return "yarn";
    case SuggestMethod::linear: return "linear";
    case SuggestMethod::ntk_base: return "ntk_base";
  }
  return "yarn";
}

namespace suggest_detail {

TrainingHistory verification_history(const Plan& plan) {
  // The change is applied without training, so only pretraining angles count.
  return {plan.model, {plan.original_tokens, 0}};
}

// The trained audit gives the seen angles, because an edit that moves rope_theta would otherwise move the
// angles the audit believes were seen in training.
std::vector<int> still_out_of_range(const Plan& plan, const Audit& edited) {
  std::vector<int> out;
  for (int index : plan.setups) {
    const auto& seen = plan.trained.setups[static_cast<std::size_t>(index)].pairs;
    const auto& needed = edited.setups[static_cast<std::size_t>(index)].pairs;
    for (std::size_t i = 0; i < std::min(seen.size(), needed.size()); ++i)
      if (seen[i].seen_rad < kTwoPi && needed[i].needed_rad > kOutOfRangeTolerance * seen[i].seen_rad)
        out.push_back(static_cast<int>(i));
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

Model edited_model(const Document& document, const std::vector<Edit>& edits) {
  Document edited = document;
  for (const auto& edit : edits) {
    try {
      edited.root[nlohmann::json::json_pointer(edit.pointer)] = edit.value;
    } catch (const nlohmann::json::exception& e) {
      throw InputError(document.path, fmt::format("suggest edit {}: {}", edit.pointer, e.what()));
    }
  }
  return normalize(edited);
}

namespace {

ShortInputEffect short_input_effect(const Plan& plan, const Model& edited) {
  ShortInputEffect effect;
  const int index = plan.setups.front();
  const RopeTable before = compute_rope_table(plan.model->setups[static_cast<std::size_t>(index)]);
  const RopeTable after = compute_rope_table(edited.setups[static_cast<std::size_t>(index)]);
  effect.pairs_total = static_cast<int>(before.inv_freq.size());
  effect.magnitude_before = before.attention_factor;
  effect.magnitude_after = after.attention_factor;
  for (std::size_t i = 0; i < std::min(before.inv_freq.size(), after.inv_freq.size()); ++i) {
    if (relative_difference(before.inv_freq[i], after.inv_freq[i]) <= 1e-9 || after.inv_freq[i] == 0.0) continue;
    ++effect.pairs_changed;
    const double ratio = before.inv_freq[i] / after.inv_freq[i];
    effect.max_ratio = std::max(effect.max_ratio, std::max(ratio, 1.0 / ratio));
  }
  return effect;
}

void complete(const Plan& plan, Suggestion& suggestion) {
  const Model edited = edited_model(*plan.document, suggestion.edits);
  suggestion.still_out_of_range = still_out_of_range(plan, audit_model(edited, plan.target_tokens, verification_history(plan)));
  suggestion.verified = suggestion.still_out_of_range.empty();
  suggestion.short_inputs = short_input_effect(plan, edited);
  const auto views = engine_views(edited, all_engines(), plan.target_tokens);
  for (const auto& view : views)
    if (view.length.limit_tokens) suggestion.engine_limits.emplace_back(view.label, *view.length.limit_tokens);
  suggestion.snippets = engine_snippets(plan, suggestion, views);
}

std::vector<int> setups_out_of_range(const Audit& audit) {
  std::vector<int> setups;
  for (const auto& s : audit.setups)
    if (!s.out_of_range_pairs.empty()) setups.push_back(s.setup);
  return setups;
}

std::vector<int> pairs_of(const Audit& audit, const std::vector<int>& setups) {
  std::vector<int> pairs;
  for (int s : setups)
    for (int p : audit.setups[static_cast<std::size_t>(s)].out_of_range_pairs) pairs.push_back(p);
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  return pairs;
}

}  // namespace
}  // namespace suggest_detail

SuggestReport suggest_changes(const std::string& path, const SuggestRequest& request) {
  using namespace suggest_detail;
  const Document document = read_config(path);
  const Model model = normalize(document);
  if (model.model_type.from.pointer.rfind("gguf:", 0) == 0)
    throw std::invalid_argument(
        "suggest edits config.json; for a GGUF file pass llama.cpp's --rope-scaling flags "
        "(run suggest on the original config.json to get them)");
  SuggestReport report;
  report.source = model.source;
  report.model_type = model.model_type.value;
  report.target_tokens = request.target_tokens;

  const Audit baseline = audit_model(model, request.target_tokens, {nullptr, {request.original_tokens, std::nullopt}});
  Plan plan;
  plan.document = &document;
  plan.model = &model;
  plan.target_tokens = request.target_tokens;
  plan.engines = request.engines;
  plan.setups = setups_out_of_range(baseline);
  report.out_of_range_before = pairs_of(baseline, plan.setups);
  if (plan.setups.empty()) {
    report.notes.push_back(model.setups.empty() ? "no rotary layers: nothing to change"
                                                : "every pair already stays within the angles seen in training");
    return report;
  }
  const SetupAudit& first = baseline.setups[static_cast<std::size_t>(plan.setups.front())];
  plan.original_tokens = first.pretrain_tokens;
  report.original_tokens = plan.original_tokens;
  report.original_from = request.original_tokens ? "--original" : first.pretrain_from.describe();
  if (!request.original_tokens && first.pretrain_from.origin != Origin::derived &&
      model.setups[static_cast<std::size_t>(plan.setups.front())].type == RopeType::default_rope)
    report.notes.push_back(
        "with no scaling in the config the declared length is taken as the trained one; pass "
        "--original N when the model card names a shorter one (Qwen3: 32768 of 40960)");
  plan.trained = audit_model(model, plan.target_tokens, verification_history(plan));

  for (auto build : {yarn_change, linear_change, ntk_base_change}) {
    Suggestion suggestion = build(plan);
    complete(plan, suggestion);
    report.suggestions.push_back(std::move(suggestion));
  }
  return report;
}

}  // namespace ropelens
