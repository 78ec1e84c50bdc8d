#include <set>

#include <fmt/format.h>

#include "../support.hpp"
#include "ropelens/engines/method_override.hpp"

namespace ropelens::rules {
namespace eng305 {

// "'default'" or "'yarn' (factor 4)"
static std::string describe(RopeType type, double factor) {
  if (type == RopeType::default_rope) return "'default'";
  return fmt::format("'{}' (factor {:.6g})", to_string(type), factor);
}

static void check(const Context& cx, Sink& out) {
  if (cx.unedited == nullptr) return;
  std::set<std::string> reported;
  for (const auto& o : find_method_overrides(*cx.unedited, cx.model)) {
    if (!reported.insert(o.pointer).second) continue;  // one dict shared by several attention kinds
    out.report(o.pointer, fmt::format("{}--set replaces the trained rope type {} with {}; the weights were trained "
                                      "with the first",
                                      setup_prefix(cx.model, o.setup), describe(o.trained, o.trained_factor),
                                      describe(o.applied, o.applied_factor)))
        .help(
            "extend the trained method instead (raise its factor, or set the length the engine serves), or "
            "validate the replacement on long-context evaluations first");
  }
}

}  // namespace eng305

extern const Rule ENG305{{"ENG305", "override-replaces-trained-method", Severity::warning,
                          "An override replaces the RoPE method the model was trained with"},
                         &eng305::check};

}  // namespace ropelens::rules
