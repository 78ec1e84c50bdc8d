// A suggested change as vLLM takes it: `--hf-overrides` (serving.cpp), except where vLLM's model class would run
// something else.
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
  return override_snippets(engine_row(Engine::vllm), request);
}

}  // namespace ropelens::engine_detail
