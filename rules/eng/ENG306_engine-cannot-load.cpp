#include <fmt/format.h>

#include "../support.hpp"
#include "ropelens/engines/engine_views.hpp"

namespace ropelens::rules {
namespace eng306 {

// "transformers 4.4x, transformers 4.5x": a view and the versions merged with it as the same behaviour.
static std::string versions_of_view(const EngineView& view) {
  std::string versions = view.label;
  for (const auto& same : view.same_as) versions += fmt::format(", {}", same);
  return versions;
}

// One finding per engine version that cannot load the config; versions merged as the same behaviour are named
// together. A version that predates the model's class is an info: the versions after it load the config.
static void check(const Context& cx, Sink& out) {
  report_launch_problems(cx, LaunchProblemKind::parallelism_refused, out);  // the line's split of the model
  if (from_gguf_file(cx.model)) return;                                     // a GGUF file runs in llama.cpp only
  for (const EngineView& view : cx.engine_views()) {
    if (view.no_class && !view.refusal) {
      out.report_as(Severity::info, cx.model.model_type.from.pointer,
                    fmt::format("{} cannot load this config: {}; its figures are not compared", versions_of_view(view),
                                *view.no_class))
          .help("use a release that has the class, or pin the stack to the versions you serve with (--stack)")
          .fact("engine", std::string(display_name(engine_of(view.version))));
      continue;
    }
    if (!view.refusal) continue;
    const std::string versions = versions_of_view(view);
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
