#include "../support.hpp"

namespace ropelens::rules {

static void check(const Context& cx, Sink& out) {
  report_problems(cx, out, "replace the value with one of the type and range the field takes");
}

extern const Rule CFG001{{"CFG001", "invalid-value", Severity::error,
                          "A position-related field has the wrong type or an impossible value"},
                         &check};

}  // namespace ropelens::rules
