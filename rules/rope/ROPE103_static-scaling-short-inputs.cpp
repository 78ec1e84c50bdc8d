#include <algorithm>

#include <fmt/format.h>

#include "../support.hpp"
#include "ropelens/analysis/analysis.hpp"

namespace ropelens::rules {
namespace rope103 {

static std::string advice(std::int64_t target, std::int64_t original, double factor, std::int64_t smallest) {
  if (target <= original)
    return fmt::format(
        "remove the scaling while inputs stay within {} tokens; enable it only for long-context "
        "deployments",
        original);
  if (static_cast<double>(smallest) < factor)
    return fmt::format(
        "use factor {} (ceil({} / {})), the smallest that covers the target, and enable scaling only "
        "for deployments whose inputs exceed {} tokens",
        smallest, target, original, original);
  return fmt::format("enable this scaling only for deployments whose inputs exceed {} tokens", original);
}

// The evidence for the trade-off the model's family documents, else the general statement: a figure is quoted only
// for the family it was measured on.
static std::string evidence(const Model& model, RopeType type) {
  const std::string& family = model.model_type.value;
  if (type == RopeType::yarn && family.starts_with("qwen3"))
    return " (measured on Qwen3: Arena-Hard 39 → 26.5 with yarn on)";
  if (type == RopeType::yarn && family.starts_with("qwen2"))
    return " (Qwen2.5's model card: static YaRN \"may impact performance on shorter texts\")";
  return " (the documented trade-off of static scaling: the factor does not follow the input's length)";
}

static void check(const Context& cx, Sink& out) {
  if (pair_figures_missing(cx)) return;
  for (int i : distinct_dict_setups(cx.model)) {
    const auto index = static_cast<std::size_t>(i);
    const RopeSetup& s = cx.model.setups[index];
    if ((s.type != RopeType::yarn && s.type != RopeType::linear) || !s.factor || s.factor->value <= 1.0) continue;
    const double factor = s.factor->value;
    const std::int64_t original = cx.audit.setups[index].pretrain_tokens;
    // A declared length that already includes the factor marks scaling the model was trained with: on a launch, the
    // length the file declares as written, not one the launch raises with the scaling it switches on (an edit that
    // declares the scaled length with its scaling, as suggest's does, is read as declared).
    const std::int64_t declared =
        cx.unedited && cx.launch ? cx.unedited->max_position_embeddings.value : s.max_position_embeddings.value;
    if (static_cast<double>(declared) >= static_cast<double>(original) * factor) continue;
    const auto& bands = cx.tables[index].bands;
    const auto changed = std::count_if(bands.begin(), bands.end(), [](Band b) { return b != Band::kept; });
    const auto smallest = smallest_covering_factor(cx.target_tokens, original);
    out.report(
           s.factor->from.pointer,
           fmt::format("static {} factor {} changes {} of {} pairs for every input, including inputs shorter than "
                       "the original {} tokens{}",
                       to_string(s.type), number(factor), changed, bands.size(), original, evidence(cx.model, s.type)))
        .help(advice(cx.target_tokens, original, factor, smallest))
        .related(s.max_position_embeddings.from.pointer)
        .fact("factor", factor)
        .fact("original_tokens", original)
        .fact("changed_pairs", changed)
        .fact("target", cx.target_tokens)
        .fact("smallest_covering_factor", smallest);
  }
}

}  // namespace rope103

extern const Rule ROPE103{{"ROPE103", "static-scaling-short-inputs", Severity::warning,
                           "Static yarn or linear scaling changes the angles of short inputs too"},
                          &rope103::check};

}  // namespace ropelens::rules
