#include <fmt/format.h>

#include "../support.hpp"
#include "ropelens/rope/engines/engine_views.hpp"

namespace ropelens::rules {
namespace eng306 {

// One finding per engine version that cannot load the config; versions merged as the same behaviour are named
// together.
static void check(const Context& cx, Sink& out) {
  if (from_gguf_file(cx.model)) return;  // a GGUF file runs in llama.cpp only
  for (const EngineView& view : cx.engine_views()) {
    if (!view.refusal) continue;
    std::string versions = view.label;
    for (const auto& same : view.same_as) versions += fmt::format(", {}", same);
    out.report(cx.model.model_type.from.pointer, fmt::format("{} cannot load this config: {}", versions, *view.refusal))
        .help(
            "serve the model on an engine that loads it (transformers with its remote code), or convert the "
            "checkpoint to a format the engine supports")
        .fact("engine", std::string(display_name(engine_of(view.version))));
  }
}

}  // namespace eng306

extern const Rule ENG306{
    {"ENG306", "engine-cannot-load", Severity::warning, "An engine cannot load this config: serving it there fails"},
    &eng306::check};

}  // namespace ropelens::rules
