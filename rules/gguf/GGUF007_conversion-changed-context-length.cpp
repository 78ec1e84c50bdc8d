#include "../support.hpp"

namespace ropelens::rules {
namespace gguf007 {

static void check(const Context& cx, Sink& out) { report_conversion(cx, ConversionAspect::context_length, out); }

}  // namespace gguf007

extern const Rule GGUF007{{"GGUF007", "conversion-changed-context-length", Severity::warning,
                           "The GGUF file's context_length differs from its source config's length"},
                          &gguf007::check};

}  // namespace ropelens::rules
