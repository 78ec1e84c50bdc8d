#include "../support.hpp"

namespace ropelens::rules {

static void check(const Context& cx, Sink& out) {
  report_problems(cx, out,
                  "add original_max_position_embeddings: the context length the model was pretrained "
                  "with, before scaling");
}

extern const Rule CFG009{{"CFG009", "defaulted-original-length", Severity::warning,
                          "A scaled RoPE lacks original_max_position_embeddings, so the declared length stands in for it"},
                         &check};

}  // namespace ropelens::rules
