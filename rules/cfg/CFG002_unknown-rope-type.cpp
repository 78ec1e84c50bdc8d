#include "../support.hpp"

namespace ropelens::rules {

static void check(const Context& cx, Sink& out) {
  report_problems(cx, out,
                  "set rope_type to default, linear, dynamic, yarn, longrope, llama3 or proportional "
                  "(the method the checkpoint was trained with)");
}

extern const Rule CFG002{{"CFG002", "unknown-rope-type", Severity::error,
                          "The RoPE type is not a method transformers implements"},
                         &check};

}  // namespace ropelens::rules
