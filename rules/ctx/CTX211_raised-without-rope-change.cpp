#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "../support.hpp"
#include "ropelens/analysis/analysis.hpp"

namespace ropelens::rules {
namespace ctx211 {

// "3.2×": the declared length over the trained one, to two decimals.
static std::string times(std::int64_t declared, std::int64_t trained) {
  return fmt::format("{:g}×", std::round(static_cast<double>(declared) / static_cast<double>(trained) * 100.0) / 100.0);
}

static bool unscaled(const Model& model) {
  return std::all_of(model.setups.begin(), model.setups.end(),
                     [](const RopeSetup& s) { return s.type == RopeType::default_rope; });
}

// --set changed the RoPE the weights were trained with (a suggestion being verified): the length is no longer
// raised with the RoPE unchanged, and CTX201 judges the new RoPE against the bounded trained length.
static bool rope_edited(const Context& cx) {
  if (cx.unedited == nullptr) return false;
  const auto& before = cx.unedited->setups;
  const auto& after = cx.model.setups;
  if (before.size() != after.size()) return true;
  for (std::size_t i = 0; i < after.size(); ++i) {
    const double factor_before = before[i].factor ? before[i].factor->value : 1.0;
    const double factor_after = after[i].factor ? after[i].factor->value : 1.0;
    if (before[i].type != after[i].type || before[i].rope_theta.value != after[i].rope_theta.value ||
        factor_before != factor_after)
      return true;
  }
  return false;
}

static void check(const Context& cx, Sink& out) {
  if (rope_edited(cx)) return;
  const TrainedLengthBound& trained = cx.audit.trained;
  const auto& declared = cx.model.max_position_embeddings;
  if (trained.bound) {
    const TrainedLength& bound = *trained.bound;
    const std::string what =
        bound.source == TrainedFrom::known_base
            ? fmt::format("the base model {} was trained at {} tokens ({})", bound.base, bound.tokens, bound.card)
            : fmt::format("{} was trained at {} tokens", bound.evidence, bound.tokens);
    out.report(declared.from.pointer,
               fmt::format("max_position_embeddings {} is raised {} over the trained length with RoPE unchanged: {}; "
                           "raising the declared length adds no trained positions, so the audit uses {}",
                           bound.declared, times(bound.declared, bound.tokens), what, bound.tokens))
        .help(fmt::format(
            "declare {} again, or {} and evaluate at that length; if the weights really were trained "
            "further, say so with --trained-length or \"trained_length\" in .ropelens.json",
            bound.tokens,
            unscaled(cx.model)
                ? fmt::format("extend RoPE for {} tokens (e.g. yarn factor {} with "
                              "original_max_position_embeddings {})",
                              bound.declared, smallest_covering_factor(bound.declared, bound.tokens), bound.tokens)
                : fmt::format("raise the RoPE scaling to cover {} tokens", bound.declared)))
        .fact("declared", bound.declared)
        .fact("trained_tokens", bound.tokens)
        .fact("source", std::string(bound.source == TrainedFrom::known_base ? "known_base" : "earlier_version"))
        .fact("base", bound.base)
        .fact("card", bound.card);
    return;
  }
  if (trained.ambiguous)
    out.report(declared.from.pointer,
               fmt::format("the config matches the known bases {}, whose trained lengths differ: the audit takes "
                           "max_position_embeddings {} as trained and cannot confirm it",
                           *trained.ambiguous, declared.value))
        .help("give the trained length with --trained-length or \"trained_length\" in .ropelens.json")
        .fact("declared", declared.value)
        .fact("candidates", *trained.ambiguous);
}

}  // namespace ctx211

extern const Rule CTX211{{"CTX211", "raised-without-rope-change", Severity::warning,
                          "The declared length is longer than the model was trained at, with the RoPE unchanged",
                          DefaultSet::included, true},
                         &ctx211::check};

}  // namespace ropelens::rules
