// A suggested change as MLX-LM takes it: mlx_lm.server has no config override and no context flag, so the change is
// the config.json edit itself, served from the edited folder (mlx_lm.server --model PATH).
#include <fmt/format.h>

#include "mlx_lm.hpp"

namespace ropelens::engine_detail {

std::vector<EngineSnippet> mlx_lm_snippets(const SnippetRequest& /*request*/) {
  const ServeFlags& serve = engine_row(Engine::mlx_lm).serve;
  EngineSnippet snippet{Engine::mlx_lm, "", launch_command(serve, ""), {}};
  snippet.notes.push_back(
      fmt::format("mlx_lm.server takes no RoPE override and no context length: serve the folder with the edited "
                  "config.json ({} sets no limit; LM Studio caps the context at max_position_embeddings)",
                  serve.launch));
  return {snippet};
}

}  // namespace ropelens::engine_detail
