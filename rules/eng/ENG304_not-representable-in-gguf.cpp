#include <algorithm>

#include <fmt/format.h>

#include "../support.hpp"
#include "ropelens/engines/engine_comparison.hpp"

namespace ropelens::rules {
namespace eng304 {

static void check(const Context& cx, Sink& out) {
  if (cx.model.setups.empty()) return;
  const auto& views = cx.engine_views();
  // The view of the engine that runs the converted file: the one that carries what the converter writes.
  const auto converted = std::find_if(views.begin(), views.end(), [](const EngineView& v) { return v.gguf; });
  if (converted == views.end()) return;
  const EngineView& view = *converted;
  if (view.gguf->from_gguf) return;
  const std::string help =
      "serve this model from config.json (transformers, vLLM, SGLang), or audit the converted "
      "file's behaviour with ropelens table --engine llama.cpp before relying on it";
  if (view.gguf->failure)
    out.report(cx.model.setups.front().pointer, fmt::format("convert_hf_to_gguf.py stops: {}", *view.gguf->failure))
        .help(help);
  for (const auto& lost : view.gguf->lost)
    out.report(lost.pointer, fmt::format("not representable in GGUF: {}", lost.what)).help(help);
}

}  // namespace eng304

extern const Rule ENG304{{"ENG304", "not-representable-in-gguf", Severity::warning,
                          "A converted GGUF cannot carry this RoPE setting, so llama.cpp runs the model differently"},
                         &eng304::check};

}  // namespace ropelens::rules
