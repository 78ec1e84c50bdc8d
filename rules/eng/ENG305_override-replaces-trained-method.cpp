#include "../support.hpp"

namespace ropelens::rules {

// The finding itself is recorded by record_method_overrides (engines.hpp) when --set edits are applied.
static void check(const Context& cx, Sink& out) {
  report_problems(cx, out,
                  "extend the trained method instead (raise its factor, or set the length the engine "
                  "serves), or validate the replacement on long-context evaluations first");
}

extern const Rule ENG305{{"ENG305", "override-replaces-trained-method", Severity::warning,
                          "An override replaces the RoPE method the model was trained with"},
                         &check};

}  // namespace ropelens::rules
