#include "../support.hpp"

namespace ropelens::rules {

static void check(const Context& cx, Sink& out) {
  report_problems(cx, out,
                  "make mrope_section sum to rotary_dim / 2, the pairs shared out among the temporal, "
                  "height and width positions");
}

extern const Rule CFG008{{"CFG008", "mrope-section-mismatch", Severity::error,
                          "The M-RoPE sections do not add up to the rotary pairs"},
                         &check};

}  // namespace ropelens::rules
