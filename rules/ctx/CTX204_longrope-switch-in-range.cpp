#include <fmt/format.h>

#include "../support.hpp"

namespace ropelens::rules {
namespace ctx204 {

static void check(const Context& cx, Sink& out) {
  for (int i : distinct_dict_setups(cx.model)) {
    const RopeSetup& s = cx.model.setups[static_cast<std::size_t>(i)];
    if (s.type != RopeType::longrope || !s.original_max_position_embeddings) continue;
    if (s.longrope.short_factor.value == s.longrope.long_factor.value) continue;  // nothing changes at the switch
    const auto& original = *s.original_max_position_embeddings;
    if (cx.target_tokens <= original.value) continue;
    out.report(s.longrope.long_factor.from.pointer,
               fmt::format("at {} tokens longrope switches from short to long factors after {} tokens: transformers "
                           "switches once a forward reaches past {} (keys cached before keep the short rotation), "
                           "SGLang switches a whole forward "
                           "batch when any position in it exceeds {} (a short request switches when a long one shares "
                           "its batch, and its cached keys are not re-rotated), vLLM picks one set per max_model_len, "
                           "llama.cpp one per context size",
                           cx.target_tokens, original.value, original.value, original.value))
        .help(fmt::format(
            "serve one regime per deployment: a context of at most {} tokens keeps the short factors, "
            "a longer one (vLLM max_model_len, llama.cpp -c) applies long factors to every request; SGLang mixes "
            "the two inside one deployment",
            original.value))
        .related(original.from.pointer)
        .related(s.longrope.short_factor.from.pointer)
        .fact("switch_after_tokens", original.value)
        .fact("target", cx.target_tokens);
  }
}

}  // namespace ctx204

extern const Rule CTX204{{"CTX204", "longrope-switch-in-range", Severity::warning,
                          "LongRoPE switches from short to long factors inside the target range"},
                         &ctx204::check};

}  // namespace ropelens::rules
