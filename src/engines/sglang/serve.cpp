// A suggested change as SGLang takes it: `--json-model-override-args` (serving.cpp). SGLang from 0.5.16 runs
// transformers v5, whose rope_scaling setter replaces rope_parameters wholesale (rope_theta included), so the
// override is the whole rope_parameters dict; the rope_scaling form is printed only for a pinned release before
// 0.5.16 (on transformers 4.x; not checked further). get_context_length
// (python/sglang/srt/utils/hf_transformers/common.py) ignores the factor when the dict has
// original_max_position_embeddings, so a length past max_position_embeddings needs
// SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1, which the snippet then sets.
#include "../serving.hpp"
#include "sglang.hpp"

namespace ropelens::engine_detail {

std::vector<EngineSnippet> sglang_snippets(const SnippetRequest& request) {
  std::vector<OverrideForm> forms = {{"≥ 0.5.16 (transformers v5, rope_parameters)", true}};
  if (pins_release_before(request, Engine::sglang, "0.5.16"))
    forms.push_back({"before 0.5.16 on transformers 4.x (rope_scaling)", false});
  return override_snippets(engine_row(Engine::sglang), request, forms);
}

}  // namespace ropelens::engine_detail
