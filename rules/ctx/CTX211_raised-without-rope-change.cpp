#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "../support.hpp"
#include "ropelens/analysis/analysis.hpp"
#include "ropelens/model/text.hpp"

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

// The key that declares the length: max_position_embeddings, or a GGUF file's {arch}.context_length.
static std::string declared_key(const Model& model) {
  return model.gguf ? model.model_type.value + ".context_length" : "max_position_embeddings";
}

// What brings the declared length back within training, or trains for it: config keys, or for a GGUF file the
// metadata edit and llama.cpp's YaRN flags.
static std::string remedy(const Context& cx, const TrainedLength& bound) {
  const std::string key = declared_key(cx.model);
  const std::int64_t factor = smallest_covering_factor(bound.declared, bound.tokens);
  if (cx.model.gguf)
    return fmt::format("set {} to {} again (gguf-set-metadata {} {} {}), or {} and evaluate at that length", key,
                       bound.tokens, shell_word(cx.model.file_to_edit()), key, bound.tokens,
                       unscaled(cx.model)
                           ? fmt::format("serve it with YaRN for {} tokens (llama.cpp --rope-scaling yarn --rope-scale "
                                         "{} --yarn-orig-ctx {})",
                                         bound.declared, factor, bound.tokens)
                           : fmt::format("raise the RoPE scaling to cover {} tokens", bound.declared));
  return fmt::format("declare {} again, or {} and evaluate at that length", bound.tokens,
                     unscaled(cx.model) ? fmt::format("extend RoPE for {} tokens (e.g. yarn factor {} with "
                                                      "original_max_position_embeddings {})",
                                                      bound.declared, factor, bound.tokens)
                                        : fmt::format("raise the RoPE scaling to cover {} tokens", bound.declared));
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
    out.report(
           declared.from.pointer,
           fmt::format("{} {} is raised {} over the trained length with RoPE unchanged: {}; "
                       "raising the declared length adds no trained positions, so the audit uses {}",
                       declared_key(cx.model), bound.declared, times(bound.declared, bound.tokens), what, bound.tokens))
        .help(fmt::format("{}; if the weights really were trained further, say so with --trained-length or "
                          "\"trained_length\" in .ropelens.json",
                          remedy(cx, bound)))
        .fact("declared", bound.declared)
        .fact("trained_tokens", bound.tokens)
        .fact("source", std::string(to_string(bound.source)))
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
