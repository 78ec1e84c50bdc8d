#include "../support.hpp"

namespace ropelens::rules {
namespace gguf005 {

static void check(const Context& cx, Sink& out) {
  report_conversion(cx, ConversionAspect::scaling, out,
                    "reconvert from the config with a current convert_hf_to_gguf.py, or restore the keys with "
                    "gguf_set_metadata.py / llama.cpp --rope-scaling, --rope-scale and --yarn-orig-ctx");
}

}  // namespace gguf005

extern const Rule GGUF005{{"GGUF005", "conversion-changed-scaling", Severity::error,
                           "The GGUF file lost or changed the RoPE scaling its source config states"},
                          &gguf005::check};

}  // namespace ropelens::rules
