// A suggested change as SGLang takes it: `--json-model-override-args` (serving.cpp).
#include "../serving.hpp"
#include "sglang.hpp"

namespace ropelens::engine_detail {

std::vector<EngineSnippet> sglang_snippets(const SnippetRequest& request) {
  return override_snippets(engine_row(Engine::sglang), request);
}

}  // namespace ropelens::engine_detail
