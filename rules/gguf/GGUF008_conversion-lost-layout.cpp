#include "../support.hpp"

namespace ropelens::rules {
namespace gguf008 {

static void check(const Context& cx, Sink& out) { report_conversion(cx, ConversionAspect::layout, out); }

}  // namespace gguf008

extern const Rule GGUF008{
    {"GGUF008", "conversion-lost-layout", Severity::warning,
     "The source config rotates dims or skips RoPE on layers in a way the GGUF file cannot state"},
    &gguf008::check};

}  // namespace ropelens::rules
