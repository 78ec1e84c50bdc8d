#include "../support.hpp"

namespace ropelens::rules {

static void check(const Context& cx, Sink& out) {
  report_problems(cx, out,
                  "give short_factor and long_factor exactly rotary_dim / 2 entries each, one divisor "
                  "per pair");
}

extern const Rule CFG005{{"CFG005", "factor-list-length", Severity::error,
                          "A longrope factor list does not have one entry per rotary pair"},
                         &check};

}  // namespace ropelens::rules
