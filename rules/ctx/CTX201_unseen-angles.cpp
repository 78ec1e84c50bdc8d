#include <fmt/format.h>

#include "../support.hpp"
#include "ropelens/analysis/analysis.hpp"

namespace ropelens::rules {
namespace ctx201 {

// On a launch line whose engine computes other frequencies than transformers: whose the needed angles are.
static std::string launched_by(const SetupAudit& a) {
  return a.needed_angles_from.empty() ? "" : fmt::format(" (with {}'s frequencies)", a.needed_angles_from);
}

static void check(const Context& cx, Sink& out) {
  for (const SetupAudit& a : cx.audit.setups) {
    if (a.out_of_range_pairs.empty() || !a.worst_pair) continue;
    const RopeSetup& s = cx.model.setups[static_cast<std::size_t>(a.setup)];
    const bool extended = a.extension_tokens > 0;
    const std::int64_t trained = extended ? a.extension_tokens : a.pretrain_tokens;
    const PairAudit& worst = a.pairs[static_cast<std::size_t>(*a.worst_pair)];
    const PairAudit& slowest = a.pairs[static_cast<std::size_t>(a.out_of_range_pairs.back())];
    std::string detail =
        fmt::format("pair {} {} seen → {} needed", worst.pair, degrees(worst.seen_deg), degrees(worst.needed_deg));
    if (slowest.pair != worst.pair)
      detail = fmt::format("pair {} {} seen → {} needed; largest unseen arc: {}", slowest.pair,
                           degrees(slowest.seen_deg), degrees(slowest.needed_deg), detail);
    const auto scale = smallest_covering_factor(cx.target_tokens, trained);
    std::string help =
        s.type == RopeType::default_rope
            ? fmt::format(
                  "keep inputs within {} tokens, or extend RoPE for {} tokens (e.g. yarn factor {} with "
                  "original_max_position_embeddings {}) and evaluate at that length",
                  trained, cx.target_tokens, scale, trained)
            : fmt::format(
                  "keep inputs within {} tokens, or raise the scaling to cover {} tokens and evaluate at "
                  "that length",
                  trained, cx.target_tokens);
    // A length bounded by evidence outside the config (CTX211) is about the declared length the config raised.
    const Provenance& from = extended ? a.extension_from : a.pretrain_from;
    out.report(
           cx.audit.trained.bound ? pointer_or(cx.model.max_position_embeddings.from, pointer_or(from, s.pointer))
                                  : pointer_or(from, s.pointer),
           fmt::format("{}at {} tokens pairs {} ({} of {}) rotate beyond the angles seen in {} trained tokens{}: {}",
                       setup_prefix(cx.model, a.setup), cx.target_tokens, index_ranges(a.out_of_range_pairs),
                       a.out_of_range_pairs.size(), a.pairs.size(), trained, launched_by(a), detail))
        .help(help)
        .fact("setup", s.name)
        .fact("target", cx.target_tokens)
        .fact("trained_tokens", trained)
        .fact("attended_tokens", a.attended_tokens)
        .fact("out_of_range_pairs", a.out_of_range_pairs)
        .fact("worst_pair", worst.pair)
        .fact("worst_seen_deg", worst.seen_deg)
        .fact("worst_needed_deg", worst.needed_deg)
        .fact("slowest_pair", slowest.pair)
        .fact("slowest_seen_deg", slowest.seen_deg)
        .fact("slowest_needed_deg", slowest.needed_deg);
  }
}

}  // namespace ctx201

extern const Rule CTX201{
    {"CTX201", "unseen-angles", Severity::error,
     "At the target length some RoPE pairs rotate beyond the angles seen in training", DefaultSet::included, true},
    &ctx201::check};

}  // namespace ropelens::rules
