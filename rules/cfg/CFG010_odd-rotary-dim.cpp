#include "../support.hpp"

namespace ropelens::rules {

static void check(const Context& cx, Sink& out) {
  report_problems(cx, out, "choose head_dim and partial_rotary_factor so that their product is an even whole number");
}

extern const Rule CFG010{{"CFG010", "odd-rotary-dim", Severity::error,
                          "The rotary dimension is odd or not a whole number"},
                         &check};

}  // namespace ropelens::rules
