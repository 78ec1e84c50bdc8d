#include "../support.hpp"

namespace ropelens::rules {

static void check(const Context& cx, Sink& out) {
  report_problems(cx, out, "set context_length to the length the model was extended to, and original_context_length to the pre-extension length");
}

extern const Rule GGUF003{{"GGUF003", "context-length-mismatch", Severity::warning,
                          "A GGUF file's `context_length` disagrees with its `original_context_length` and scaling factor"},
                         &check};

}  // namespace ropelens::rules
