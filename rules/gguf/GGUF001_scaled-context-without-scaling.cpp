#include "../support.hpp"

namespace ropelens::rules {

static void check(const Context& cx, Sink& out) {
  report_problems(cx, out, "add the rope.scaling keys (or factor tensors) the source config had, by reconverting it with a current convert_hf_to_gguf.py");
}

extern const Rule GGUF001{{"GGUF001", "scaled-context-without-scaling", Severity::warning,
                          "A GGUF file claims a context longer than its original length, but carries nothing that scales RoPE"},
                         &check};

}  // namespace ropelens::rules
