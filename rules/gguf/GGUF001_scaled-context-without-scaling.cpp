#include <fmt/format.h>

#include "../support.hpp"

namespace ropelens::rules {
namespace gguf001 {

// "rope.scaling.type 'none' with factor 4, no rope_freqs or rope_factors tensors"
static std::string stated_scaling(const GgufFacts& gguf) {
  return fmt::format("rope.scaling.type '{}'{}, no rope_freqs or rope_factors tensors", gguf.scaling_type.value,
                     gguf.scaling_factor ? fmt::format(" with factor {}", gguf.scaling_factor->value)
                                         : std::string(" without a factor"));
}

static void check(const Context& cx, Sink& out) {
  const Model& model = cx.model;
  if (!model.gguf || model.gguf->extends()) return;
  const GgufFacts& gguf = *model.gguf;
  const auto& original = model.original_max_position_embeddings;
  const auto& factor = gguf.scaling_factor;
  const std::string& type = gguf.scaling_type.value;
  const std::string help =
      "add the rope.scaling keys (or factor tensors) the source config had, by reconverting "
      "it with a current convert_hf_to_gguf.py";
  if (original && original->value < model.max_position_embeddings.value)
    out.report(original->from.pointer,
               fmt::format("context_length {} exceeds original_context_length {}, but nothing scales RoPE ({}): "
                           "llama.cpp runs unscaled RoPE past the original length",
                           model.max_position_embeddings.value, original->value, stated_scaling(gguf)))
        .help(help);
  else if (factor && factor->value > 1.0)
    out.report(factor->from.pointer,
               fmt::format("rope.scaling.factor {} implies an extended context, but llama.cpp ignores it ({})",
                           factor->value, stated_scaling(gguf)))
        .help(help);
  else if (type == "yarn" || type == "longrope")
    out.report(gguf.scaling_type.from.pointer,
               fmt::format("rope.scaling.type is {}, but nothing scales RoPE ({})", type, stated_scaling(gguf)))
        .help(help);
}

}  // namespace gguf001

extern const Rule GGUF001{
    {"GGUF001", "scaled-context-without-scaling", Severity::warning,
     "A GGUF file claims a context longer than its original length, but carries nothing that scales RoPE"},
    &gguf001::check};

}  // namespace ropelens::rules
