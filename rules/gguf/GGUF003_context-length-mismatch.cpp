#include <cmath>

#include <fmt/format.h>

#include "../support.hpp"

namespace ropelens::rules {
namespace gguf003 {

// With both lengths present and a factor f > 1, the context must be the original length (converters copy the
// unscaled max_position_embeddings, as for Qwen) or f × original within 0.1%. The file as written is checked: keys a
// launch's flags or --set replace (llama-server --rope-scaling yarn on a file without scaling keys) are not the
// file's, and what the launch makes of them is the SRV and CTX rules' to say.
static void check(const Context& cx, Sink& out) {
  const Model& model = cx.unedited ? *cx.unedited : cx.model;
  const auto& original = model.original_max_position_embeddings;
  if (!model.gguf || !original) return;
  const std::string help =
      "set context_length to the length the model was extended to, and "
      "original_context_length to the pre-extension length";
  const std::int64_t context = model.max_position_embeddings.value;
  if (original->value > context) {
    out.report(original->from.pointer,
               fmt::format("original_context_length {} exceeds context_length {}", original->value, context))
        .help(help);
    return;
  }
  const auto& factor = model.gguf->scaling_factor;
  if (!factor || factor->value <= 1.0 || original->value == context) return;
  const double scaled = factor->value * static_cast<double>(original->value);
  if (std::abs(scaled - static_cast<double>(context)) <= 1e-3 * static_cast<double>(context)) return;
  out.report(model.max_position_embeddings.from.pointer,
             fmt::format("context_length {} is neither original_context_length {} nor factor × original "
                         "({} × {} = {})",
                         context, original->value, factor->value, original->value, scaled))
      .help(help);
}

}  // namespace gguf003

extern const Rule GGUF003{
    {"GGUF003", "context-length-mismatch", Severity::warning,
     "A GGUF file's `context_length` disagrees with its `original_context_length` and scaling factor"},
    &gguf003::check};

}  // namespace ropelens::rules
