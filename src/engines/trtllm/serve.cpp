// A suggested change as TensorRT-LLM takes it: trtllm-serve has no config override, so the change is the config.json
// edit itself, served from the edited folder with the length as --max_seq_len (a larger one than the inferred length
// is lowered to it, model_engine.py _init_max_seq_len).
#include <fmt/format.h>

#include "trtllm.hpp"

namespace ropelens::engine_detail {

std::vector<EngineSnippet> trtllm_snippets(const SnippetRequest& request) {
  const ServeFlags& serve = engine_row(Engine::trtllm).serve;
  EngineSnippet snippet{
      Engine::trtllm,
      "",
      fmt::format("{} {} {}", launch_command(serve, ""), serve.context_length, request.change.target_tokens),
      {}};
  snippet.notes.push_back("trtllm-serve takes no RoPE override: serve the folder with the edited config.json");
  return {snippet};
}

}  // namespace ropelens::engine_detail
