// Ready-to-paste engine invocations for one suggestion. vLLM and SGLang take the config fragment as an
// override (nested under text_config where the model nests); when an engine version would derive a length below
// the target for the edited config, the override also raises max_position_embeddings (the engines' own
// alternative, an environment variable, is named in a note). llama.cpp takes its runtime flags.
#include <algorithm>

#include <fmt/format.h>

#include "suggesting.hpp"

namespace ropelens::suggest_detail {
namespace {

using nlohmann::ordered_json;

struct ShortLimit {
  std::vector<std::string> labels;
  std::int64_t limit_tokens = 0;
};

ShortLimit short_limits(const std::vector<EngineView>& views, Engine engine, std::int64_t target_tokens) {
  ShortLimit out;
  for (const auto& view : views) {
    if (engine_of(view.version) != engine || !view.length.limit_tokens) continue;
    if (*view.length.limit_tokens >= target_tokens) continue;
    out.labels.push_back(view.label);
    out.limit_tokens = *view.length.limit_tokens;
  }
  return out;
}

std::int64_t covering_length(const Plan& plan, const Suggestion& suggestion) {
  if (suggestion.method != SuggestMethod::yarn) return plan.target_tokens;
  const auto scaled = static_cast<std::int64_t>(static_cast<double>(plan.original_tokens) * suggestion.value);
  return std::max(plan.target_tokens, scaled);
}

// The fragment as an override, with max_position_embeddings raised when some version of the engine needs it.
std::string override_json(const Plan& plan, const Suggestion& suggestion, const ShortLimit& limits,
                          EngineSnippet& snippet, std::string_view alternative) {
  ordered_json override = suggestion.config_fragment;
  if (!limits.labels.empty()) {
    const std::int64_t length = covering_length(plan, suggestion);
    override[ordered_json::json_pointer(plan.model->text_pointer + "/max_position_embeddings")] = length;
    snippet.notes.push_back(
        fmt::format("{} derive{} {} tokens for the edited config; max_position_embeddings {} in "
                    "the override raises that (alternative: {})",
                    fmt::join(limits.labels, " and "), limits.labels.size() == 1 ? "s" : "", limits.limit_tokens,
                    length, alternative));
  }
  return override.dump();
}

EngineSnippet vllm_snippet(const Plan& plan, const Suggestion& suggestion, const std::vector<EngineView>& views) {
  EngineSnippet snippet;
  snippet.engine = Engine::vllm;
  const ShortLimit limits = short_limits(views, Engine::vllm, plan.target_tokens);
  const std::string json = override_json(plan, suggestion, limits, snippet, "VLLM_ALLOW_LONG_MAX_MODEL_LEN=1");
  snippet.command = fmt::format("vllm serve <model> --hf-overrides '{}' --max-model-len {}", json, plan.target_tokens);
  return snippet;
}

EngineSnippet sglang_snippet(const Plan& plan, const Suggestion& suggestion, const std::vector<EngineView>& views) {
  EngineSnippet snippet;
  snippet.engine = Engine::sglang;
  const ShortLimit limits = short_limits(views, Engine::sglang, plan.target_tokens);
  const std::string json =
      override_json(plan, suggestion, limits, snippet, "SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1");
  snippet.command = fmt::format(
      "python -m sglang.launch_server --model-path <model> --json-model-override-args '{}' "
      "--context-length {}",
      json, plan.target_tokens);
  return snippet;
}

std::string llama_cpp_flags(const Plan& plan, const Suggestion& suggestion) {
  switch (suggestion.method) {
    case SuggestMethod::yarn:
      return fmt::format("--rope-scaling yarn --rope-scale {:.10g} --yarn-orig-ctx {}", suggestion.value,
                         plan.original_tokens);
    case SuggestMethod::linear: return fmt::format("--rope-scaling linear --rope-scale {:.10g}", suggestion.value);
    case SuggestMethod::ntk_base: return fmt::format("--rope-freq-base {:.10g}", suggestion.value);
  }
  return {};
}

EngineSnippet llama_cpp_snippet(const Plan& plan, const Suggestion& suggestion, const std::vector<EngineView>& views) {
  EngineSnippet snippet;
  snippet.engine = Engine::llama_cpp;
  snippet.command =
      fmt::format("llama-server -m <model>.gguf -c {} {}", plan.target_tokens, llama_cpp_flags(plan, suggestion));
  const ShortLimit limits = short_limits(views, Engine::llama_cpp, plan.target_tokens);
  if (!limits.labels.empty())
    snippet.notes.push_back(
        fmt::format("llama.cpp warns \"n_ctx_seq ({}) > n_ctx_train ({}) -- possible training "
                    "context overflow\"; expected with runtime scaling",
                    plan.target_tokens, limits.limit_tokens));
  return snippet;
}

}  // namespace

std::vector<EngineSnippet> engine_snippets(const Plan& plan, const Suggestion& suggestion,
                                           const std::vector<EngineView>& edited_views) {
  std::vector<EngineSnippet> snippets;
  auto wanted = [&](Engine e) { return std::find(plan.engines.begin(), plan.engines.end(), e) != plan.engines.end(); };
  if (wanted(Engine::vllm)) snippets.push_back(vllm_snippet(plan, suggestion, edited_views));
  if (wanted(Engine::sglang)) snippets.push_back(sglang_snippet(plan, suggestion, edited_views));
  if (wanted(Engine::llama_cpp)) snippets.push_back(llama_cpp_snippet(plan, suggestion, edited_views));
  return snippets;
}

}  // namespace ropelens::suggest_detail
