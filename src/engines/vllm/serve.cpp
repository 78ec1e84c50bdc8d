// A suggested change as vLLM takes it: `--hf-overrides` (serving.cpp), except where vLLM's model class would run
// something else. Since PR #28542 (merged 2025-11-19, first in 0.12.0) vLLM copies rope_scaling into
// rope_parameters when it loads the config and applies a dict-valued --hf-overrides after that
// (vllm/config/model.py, _apply_dict_overrides), so only a rope_parameters override takes effect; the rope_scaling
// form is printed only for a pinned release before 0.12. `--rope-scaling` and `--rope-theta` were removed in
// 0.11.1 (PR #28006) and are never printed.
#include "../serving.hpp"
#include "vllm.hpp"

namespace ropelens::engine_detail {

std::vector<EngineSnippet> vllm_snippets(const SnippetRequest& request) {
  // vLLM's DeepSeek model class rewrites any rope_scaling type to deepseek_yarn, so linear scaling of an MLA
  // model is not what it runs.
  if (request.edited->uses_mla() && request.change.method == RopeChangeMethod::linear)
    return {{Engine::vllm,
             "",
             "",
             {"vLLM runs every rope_scaling of this MLA model as deepseek_yarn (DeepseekV2 model class), so it "
              "would not run this linear scaling; use the YaRN suggestion"}}};
  std::vector<OverrideForm> forms = {{"≥ 0.12 (reads rope_parameters, PR #28542)", true}};
  if (pins_release_before(request, Engine::vllm, "0.12.0")) forms.push_back({"≤ 0.11 (reads rope_scaling)", false});
  return override_snippets(engine_row(Engine::vllm), request, forms);
}

}  // namespace ropelens::engine_detail
