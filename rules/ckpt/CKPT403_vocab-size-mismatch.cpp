#include <fmt/format.h>

#include "../support.hpp"

namespace ropelens::rules {
namespace ckpt403 {

// The input embedding and the output projection of the language model, as transformers names them and as GGUF
// files do (token_embd, output).
static bool is_vocab_matrix(std::string_view name) {
  static constexpr std::string_view kNames[] = {"model.embed_tokens.weight",
                                                "model.language_model.embed_tokens.weight",
                                                "language_model.model.embed_tokens.weight",
                                                "model.text_model.embed_tokens.weight",
                                                "model.decoder.embed_tokens.weight",
                                                "transformer.wte.weight",
                                                "transformer.word_embeddings.weight",
                                                "gpt_neox.embed_in.weight",
                                                "embed_out.weight",
                                                "lm_head.weight",
                                                "language_model.lm_head.weight",
                                                "token_embd.weight",
                                                "output.weight"};
  for (std::string_view known : kNames)
    if (name == known) return true;
  return false;
}

static void check(const Context& cx, Sink& out) {
  const Model& model = cx.model;
  if (!model.checkpoint || !model.vocab_size) return;
  const auto vocab = static_cast<std::uint64_t>(model.vocab_size->value);
  for (const auto& tensor : model.checkpoint->tensors) {
    if (!is_vocab_matrix(tensor.name) || tensor.shape.size() != 2 || tensor.shape[0] == vocab) continue;
    const std::uint64_t rows = tensor.shape[0];
    const std::string consequence = rows < vocab ? fmt::format("token ids {}–{} have no row", rows, vocab - 1)
                                                 : fmt::format("rows {}–{} are unreachable", vocab, rows - 1);
    out.report(model.vocab_size->from.pointer,
               fmt::format("{} is {}: {} rows, but vocab_size is {} ({}; transformers refuses the tensor with a size "
                           "mismatch)",
                           tensor.name, shape_text(tensor.shape), rows, vocab, consequence))
        .help(fmt::format("set vocab_size to {}, the rows the checkpoint holds, or use the checkpoint this config "
                          "belongs to",
                          rows))
        .fact("tensor", tensor.name)
        .fact("shape", tensor.shape)
        .fact("config_key", "vocab_size");
  }
}

}  // namespace ckpt403

extern const Rule CKPT403{{"CKPT403", "vocab-size-mismatch", Severity::error,
                           "The embedding or output matrix has a different number of rows than the config's "
                           "vocab_size"},
                          &ckpt403::check};

}  // namespace ropelens::rules
