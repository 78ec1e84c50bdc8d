#include "../support.hpp"

namespace ropelens::rules {
namespace gguf006 {

static void check(const Context& cx, Sink& out) { report_conversion(cx, ConversionAspect::theta, out); }

}  // namespace gguf006

extern const Rule GGUF006{{"GGUF006", "conversion-changed-theta", Severity::error,
                           "The GGUF file's RoPE base differs from its source config's rope_theta"},
                          &gguf006::check};

}  // namespace ropelens::rules
