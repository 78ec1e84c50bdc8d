// A suggested change as ExLlamaV3 takes it: TabbyAPI has no config override, so the change is the config.json edit
// itself; the length is max_seq_len (and cache_size), which TabbyAPI takes from config.yml or its command line
// (--max-seq-len, --cache-size).
#include <fmt/format.h>

#include "exllamav3.hpp"

namespace ropelens::engine_detail {

std::vector<EngineSnippet> exllamav3_snippets(const SnippetRequest& request) {
  const ServeFlags& serve = engine_row(Engine::exllamav3).serve;
  const std::int64_t tokens = request.change.target_tokens;
  EngineSnippet snippet{Engine::exllamav3,
                        "",
                        fmt::format("{} {} {} --cache-size {}", launch_command(serve, ""), serve.context_length, tokens,
                                    (tokens + kExl3PageTokens - 1) / kExl3PageTokens * kExl3PageTokens),
                        {}};
  snippet.notes.push_back(
      "TabbyAPI takes no RoPE override: serve the folder with the edited config.json; ExLlamaV3 replaces a YaRN "
      "factor by max_position_embeddings / original_max_position_embeddings, so keep the two consistent");
  return {snippet};
}

}  // namespace ropelens::engine_detail
