#include "../support.hpp"

namespace ropelens::rules {

static void check(const Context& cx, Sink& out) {
  report_problems(cx, out, "add the missing key with the value the checkpoint was trained with");
}

extern const Rule CFG003{{"CFG003", "missing-required-key", Severity::error,
                          "A key the RoPE method requires is absent"},
                         &check};

}  // namespace ropelens::rules
