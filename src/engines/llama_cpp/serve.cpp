// A suggested change as llama.cpp takes it: runtime flags on llama-server, for the file converted from the edited
// config.json (gguf_flags.cpp has them for a GGUF file).

#include <fmt/format.h>

#include "../serving.hpp"
#include "llama_cpp.hpp"

namespace ropelens::engine_detail {
namespace {

std::string llama_cpp_flags(const RopeChange& change) {
  switch (change.method) {
    case RopeChangeMethod::yarn:
      return fmt::format("--rope-scaling yarn --rope-scale {:.10g} --yarn-orig-ctx {}", change.value,
                         change.original_tokens);
    case RopeChangeMethod::linear: return fmt::format("--rope-scaling linear --rope-scale {:.10g}", change.value);
    case RopeChangeMethod::ntk_base: return fmt::format("--rope-freq-base {:.10g}", change.value);
    case RopeChangeMethod::llama3_factor: return "";  // the factor lives in the converted file's rope_freqs tensor
  }
  return {};
}

}  // namespace

std::vector<EngineSnippet> llama_cpp_snippets(const SnippetRequest& request) {
  const RopeChange& change = request.change;
  const ServeFlags& serve = engine_row(Engine::llama_cpp).serve;
  EngineSnippet snippet;
  snippet.engine = Engine::llama_cpp;
  std::string flags = llama_cpp_flags(change);
  // llama-server caps a slot at n_ctx_train (the file's context_length) in builds from cd5e3b57 until PR #28030;
  // --override-kv lifts it in every build (llama.cpp #17459).
  const ShortLimit limits = short_limits(*request.views, Engine::llama_cpp, change.target_tokens);
  if (!limits.labels.empty()) {
    const std::string arch = plan_gguf(*request.edited).conversion.arch;
    flags += fmt::format("{}--override-kv {}.context_length=int:{}", flags.empty() ? "" : " ",
                         arch.empty() ? request.edited->model_type.value : arch, change.target_tokens);
    snippet.notes.push_back(
        fmt::format("the converted file's context_length is {} (n_ctx_train): --override-kv "
                    "raises it to the served length",
                    limits.limit_tokens));
  }
  // The engine loads the file converted from the edited config.json, which ropelens does not know by name.
  snippet.command = fmt::format("{} {} {}{}", launch_command(serve, ""), serve.context_length, change.target_tokens,
                                flags.empty() ? "" : " " + flags);
  if (change.method == RopeChangeMethod::llama3_factor)
    snippet.notes.push_back(
        "on a file converted from the edited config.json: convert_hf_to_gguf.py writes the llama3 divisors "
        "into the rope_freqs tensor, which no flag changes");
  return {snippet};
}

}  // namespace ropelens::engine_detail
