#include <fmt/format.h>

#include "../support.hpp"

namespace ropelens::rules {
namespace cfg009 {

static void check(const Context& cx, Sink& out) {
  for_each_issue<DefaultedOriginalLength>(cx.model, [&](const std::string& pointer, const DefaultedOriginalLength& d) {
    out.report(pointer, fmt::format("{} scaling without original_max_position_embeddings: transformers fills it with "
                                    "max_position_embeddings {}, so the pre-extension length is taken to be the "
                                    "extended one",
                                    to_string(d.rope_type), d.filled_with))
        .help(
            "add original_max_position_embeddings: the context length the model was pretrained with, before "
            "scaling");
  });
}

}  // namespace cfg009

extern const Rule CFG009{
    {"CFG009", "defaulted-original-length", Severity::warning,
     "A scaled RoPE lacks original_max_position_embeddings, so the declared length stands in for it"},
    &cfg009::check};

}  // namespace ropelens::rules
