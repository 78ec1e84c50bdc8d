#include "../support.hpp"

namespace ropelens::rules {
namespace gguf008 {

static void check(const Context& cx, Sink& out) {
  report_conversion(cx, ConversionAspect::layout, out,
                    "serve the model with an engine that reads the config (vLLM, SGLang, transformers), or check that "
                    "llama.cpp's architecture for it hard-codes the same layout");
}

}  // namespace gguf008

extern const Rule GGUF008{
    {"GGUF008", "conversion-lost-layout", Severity::warning,
     "The source config rotates dims or skips RoPE on layers in a way the GGUF file cannot state"},
    &gguf008::check};

}  // namespace ropelens::rules
