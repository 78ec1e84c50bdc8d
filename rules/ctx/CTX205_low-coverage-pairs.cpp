#include <fmt/format.h>

#include "../support.hpp"

namespace ropelens::rules {
namespace ctx205 {

static void check(const Context& cx, Sink& out) {
  for (const SetupAudit& a : cx.audit.setups) {
    const RopeSetup& s = cx.model.setups[static_cast<std::size_t>(a.setup)];
    const bool extended = a.extension_tokens > 0;
    const std::int64_t trained = extended ? a.extension_tokens : a.pretrain_tokens;
    if (s.window_tokens && s.window_tokens->value < trained) continue;  // these layers never look that far
    std::vector<int> low;
    for (const PairAudit& p : a.pairs)
      if (p.seen_rad > 0.0 && p.seen_rad < kTwoPi) low.push_back(p.pair);
    if (low.empty()) continue;
    const PairAudit& slowest = a.pairs[static_cast<std::size_t>(low.back())];
    // A length bounded by evidence outside the config (CTX211) is about the declared length the config raised.
    const Provenance& from = extended ? a.extension_from : a.pretrain_from;
    out.report(cx.audit.trained.bound ? pointer_or(cx.model.max_position_embeddings.from, pointer_or(from, s.pointer))
                                      : pointer_or(from, s.pointer),
               fmt::format("{}pairs {} ({} of {}) complete less than one turn in {} trained tokens (pair {}: {:.2g} "
                           "turns), so angles past that were never seen",
                           setup_prefix(cx.model, a.setup), index_ranges(low), low.size(), a.pairs.size(), trained,
                           slowest.pair, slowest.seen_rad / kTwoPi))
        .help(fmt::format("treat inputs longer than {} tokens as untested for these pairs (see CTX201 at your target)",
                          trained))
        .fact("setup", s.name)
        .fact("trained_tokens", trained)
        .fact("pairs", low)
        .fact("slowest_turns", slowest.seen_rad / kTwoPi);
  }
}

}  // namespace ctx205

extern const Rule CTX205{{"CTX205", "low-coverage-pairs", Severity::info,
                          "Some RoPE pairs complete less than one turn over the trained length", DefaultSet::opt_in},
                         &ctx205::check};

}  // namespace ropelens::rules
