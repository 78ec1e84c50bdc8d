#include <fmt/format.h>

#include "../support.hpp"

namespace ropelens::rules {
namespace ctx204 {

// The views of the stack that switch factor sets inside one deployment (per forward call or per batch), where keys
// rotated with one set meet queries rotated with the other; engines that fix one set per deployment or context do not.
static std::vector<std::string> mixing(const Context& cx, int setup) {
  std::vector<std::string> labels;
  for (const EngineView& view : cx.engine_views())
    for (const EngineSetupView& s : view.setups)
      if (cx.deployment.serves(engine_of(view.version)) && s.setup == setup &&
          (s.factor_switch == FactorSwitch::per_sequence || s.factor_switch == FactorSwitch::per_batch))
        labels.push_back(view.label);
  return labels;
}

static void check(const Context& cx, Sink& out) {
  for (int i : distinct_dict_setups(cx.model)) {
    const RopeSetup& s = cx.model.setups[static_cast<std::size_t>(i)];
    if (s.type != RopeType::longrope || !s.original_max_position_embeddings) continue;
    if (s.longrope.short_factor.value == s.longrope.long_factor.value) continue;  // nothing changes at the switch
    const auto& original = *s.original_max_position_embeddings;
    if (cx.target_tokens <= original.value) continue;
    if (mixing(cx, i).empty()) continue;  // every engine of the stack runs one set per deployment or context
    out.report(s.longrope.long_factor.from.pointer,
               fmt::format("at {} tokens longrope switches from short to long factors after {} tokens, and attention "
                           "then scores keys rotated with one set against queries rotated with the other: transformers "
                           "v5 switches per forward, so a generation that crosses {} keeps the short-rotated keys it "
                           "cached; SGLang switches a whole forward batch when any position in it exceeds {} "
                           "(rope_variant.py @0b1fd02d), so a short request sharing a batch with a long one is "
                           "rotated with the long set against its short-rotated cache; vLLM (one set per "
                           "max_model_len) and llama.cpp (one per context size) do not mix them",
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
