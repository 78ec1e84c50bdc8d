#include "../support.hpp"

namespace ropelens::rules {
namespace gguf005 {

static void check(const Context& cx, Sink& out) { report_conversion(cx, ConversionAspect::scaling, out); }

}  // namespace gguf005

extern const Rule GGUF005{{"GGUF005", "conversion-changed-scaling", Severity::error,
                           "The GGUF file lost or changed the RoPE scaling its source config states"},
                          &gguf005::check};

}  // namespace ropelens::rules
