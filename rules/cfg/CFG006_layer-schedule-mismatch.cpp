#include "../support.hpp"

namespace ropelens::rules {

static void check(const Context& cx, Sink& out) {
  report_problems(cx, out,
                  "list exactly one known layer type (or 0/1 flag) per layer, num_hidden_layers entries "
                  "in all");
}

extern const Rule CFG006{{"CFG006", "layer-schedule-mismatch", Severity::error,
                          "The per-layer schedule does not match the layer count or names an unknown layer type"},
                         &check};

}  // namespace ropelens::rules
