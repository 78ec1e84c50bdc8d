#include "../support.hpp"

namespace ropelens::rules {

static void check(const Context& cx, Sink& out) {
  report_problems(cx, out, "reconvert the model so the factor tensor has rotary_dim/2 positive values");
}

extern const Rule GGUF002{{"GGUF002", "rope-factor-tensor-mismatch", Severity::error,
                          "A per-pair RoPE factor tensor does not have one finite, positive value per rotary pair"},
                         &check};

}  // namespace ropelens::rules
