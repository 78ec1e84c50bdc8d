#include <set>

#include <fmt/format.h>

#include "../support.hpp"
#include "ropelens/engines/engine_comparison.hpp"
#include "ropelens/engines/engine_views.hpp"

namespace ropelens::rules {
namespace eng307 {  // this rule's helpers: rule files share unity batches

// What the view says about its own reading of the setup: the cause, in the engine's terms.
static std::string reasons(const EngineSetupView& setup) {
  std::vector<std::string> texts;
  for (const auto& note : setup.notes) texts.push_back(note.text());
  return fmt::format("{}", fmt::join(texts, "; "));
}

// One finding per engine version and RoPE dict whose factor the engine does not run as stated: another factor (a
// length ratio in place of the factor), or none at all (settings it does not read). Views of a GGUF conversion are
// ENG304's, and a view that cannot load the config is ENG306's.
static void check(const Context& cx, Sink& out) {
  if (from_gguf_file(cx.model)) return;
  for (const EngineView& view : cx.engine_views()) {
    if (view.refusal || view.no_class || view.gguf || !deployed(cx, view)) continue;
    std::set<std::string> reported;
    for (const EngineSetupView& served : view.setups) {
      const RopeSetup& setup = cx.model.setups[static_cast<std::size_t>(served.setup)];
      if (!setup.factor || !reported.insert(setup.pointer).second) continue;
      const double stated = setup.factor->value;
      if (relative_difference(served.factor, stated) <= 1e-4) continue;
      const std::string why = reasons(served);
      const std::string message =
          served.factor == 1.0 && served.method == RopeType::default_rope
              ? fmt::format("{}{} loads this config without its {} scaling (factor {}){}",
                            setup_prefix(cx.model, served.setup), view.label, setup.rope_type_name.value,
                            number(stated), why.empty() ? "" : ": " + why)
              : fmt::format("{}{} runs factor {} where the config says {}{}", setup_prefix(cx.model, served.setup),
                            view.label, number(served.factor), number(stated), why.empty() ? "" : ": " + why);
      out.report(pointer_or(setup.factor->from, setup.pointer), message)
          .help(
              "serve the model on an engine that runs the config as written, or write the config so this engine reads "
              "it the same (the keys it reads are named above); compare with ropelens table --engine all")
          .fact("engine", std::string(display_name(engine_of(view.version))))
          .fact("stated_factor", stated)
          .fact("engine_factor", served.factor);
    }
  }
}

}  // namespace eng307

extern const Rule ENG307{{"ENG307", "engine-runs-other-scaling", Severity::warning,
                          "An engine runs a different RoPE scaling factor than the config states"},
                         &eng307::check};

}  // namespace ropelens::rules
