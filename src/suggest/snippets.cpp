// Ready-to-paste engine invocations for one suggestion, each the same edit as its config.json fragment. vLLM
// and SGLang take it as an override: with transformers v5 as the whole rope_parameters dict (an override
// replaces the dict, so every key the model needs is written), with transformers 4.x as the fragment itself.
// llama.cpp takes its runtime flags.
#include <algorithm>
#include <iterator>
#include <utility>

#include <fmt/format.h>

#include "ropelens/engines/engine_descriptor.hpp"
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

std::string limit_note(const ShortLimit& limits, std::string_view alternative) {
  return fmt::format("{} derive{} {} tokens for the edited config; set {} to go beyond",
                     fmt::join(limits.labels, " and "), limits.labels.size() == 1 ? "s" : "", limits.limit_tokens,
                     alternative);
}

void put_if(ordered_json& dict, const char* key, const auto& field) {
  if (field.from.origin == Origin::config) dict[key] = field.value;
}

template <class T> void put_if(ordered_json& dict, const char* key, const std::optional<Field<T>>& field) {
  if (field) put_if(dict, key, *field);
}

// The whole RoPE dict of one setup as transformers v5 holds it: replacing rope_parameters replaces every key,
// so rope_theta and the partial rotary factor must be in it or the engine falls back to their defaults.
ordered_json rope_parameters_of(const RopeSetup& setup) {
  ordered_json dict;
  dict["rope_type"] = std::string(to_string(setup.type));
  dict["rope_theta"] = setup.rope_theta.value;
  if (setup.partial_rotary_factor.value != 1.0) dict["partial_rotary_factor"] = setup.partial_rotary_factor.value;
  if (setup.factor) dict["factor"] = setup.factor->value;
  put_if(dict, "original_max_position_embeddings", setup.original_max_position_embeddings);
  if (setup.type == RopeType::yarn) {
    put_if(dict, "beta_fast", setup.yarn.beta_fast);
    put_if(dict, "beta_slow", setup.yarn.beta_slow);
    put_if(dict, "mscale", setup.yarn.mscale);
    put_if(dict, "mscale_all_dim", setup.yarn.mscale_all_dim);
    put_if(dict, "attention_factor", setup.yarn.attention_factor);
    put_if(dict, "truncate", setup.yarn.truncate);
  }
  if (setup.type == RopeType::llama3) {
    dict["low_freq_factor"] = setup.llama3.low_freq_factor.value;
    dict["high_freq_factor"] = setup.llama3.high_freq_factor.value;
  }
  if (setup.type == RopeType::longrope) {
    dict["short_factor"] = setup.longrope.short_factor.value;
    dict["long_factor"] = setup.longrope.long_factor.value;
    put_if(dict, "attention_factor", setup.longrope.attention_factor);
  }
  if (!setup.mrope_section.empty()) dict["mrope_section"] = setup.mrope_section;
  if (setup.mrope_interleaved) dict["mrope_interleaved"] = true;
  return dict;
}

// One dict, or one per layer type when the layer types run different RoPE (Gemma 3: full and sliding).
ordered_json rope_parameters_of(const Model& model) {
  bool per_layer_type = false;
  for (const auto& setup : model.setups) per_layer_type = per_layer_type || setup.name != model.setups.front().name;
  if (!per_layer_type) return rope_parameters_of(model.setups.front());
  ordered_json by_type = ordered_json::object();
  for (const auto& setup : model.setups)
    if (!by_type.contains(setup.name)) by_type[setup.name] = rope_parameters_of(setup);
  return by_type;
}

// The edit as an override for an engine running transformers v5: rope_parameters whole, plus the length.
std::string v5_override(const Suggestion& suggestion, const Model& edited) {
  ordered_json override = ordered_json::object();
  override[ordered_json::json_pointer(edited.text_pointer + "/rope_parameters")] = rope_parameters_of(edited);
  const std::string length = length_pointer(edited);
  for (const auto& edit : suggestion.edits)
    if (edit.pointer == length) override[ordered_json::json_pointer(length)] = edit.value;
  return override.dump();
}

constexpr const char* kV5 = "with transformers v5 (rope_parameters replaces the whole dict, rope_theta included)";
constexpr const char* kV4 = "with transformers 4.x (rope_scaling)";

// vLLM's DeepSeek model class rewrites any rope_scaling type to deepseek_yarn, so linear scaling of an MLA
// model is not what it runs.
bool vllm_runs_something_else(const Model& model, const Suggestion& suggestion) {
  return model.uses_mla() && suggestion.method == SuggestMethod::linear;
}

// The edit as the engine's config override, once for each transformers generation, with its context length.
std::vector<EngineSnippet> override_snippets(const Plan& plan, const Suggestion& suggestion, const Model& edited,
                                             const std::vector<EngineView>& views, Engine engine) {
  const ServeFlags& serve = describe(engine).serve;
  const ShortLimit limits = short_limits(views, engine, plan.target_tokens);
  std::vector<EngineSnippet> out;
  for (const auto& [versions, json] : {std::pair<std::string, std::string>{kV5, v5_override(suggestion, edited)},
                                       {kV4, suggestion.config_fragment.dump()}}) {
    EngineSnippet snippet{engine,
                          versions,
                          fmt::format("{} {} '{}' {} {}", serve.launch, serve.config_override, json,
                                      serve.context_length, plan.target_tokens),
                          {}};
    if (!limits.labels.empty()) snippet.notes.push_back(limit_note(limits, serve.allow_longer));
    out.push_back(std::move(snippet));
  }
  return out;
}

std::vector<EngineSnippet> vllm_snippets(const Plan& plan, const Suggestion& suggestion, const Model& edited,
                                         const std::vector<EngineView>& views) {
  if (vllm_runs_something_else(edited, suggestion))
    return {{Engine::vllm,
             "",
             "",
             {"vLLM runs every rope_scaling of this MLA model as deepseek_yarn (DeepseekV2 model class), so it "
              "would not run this linear scaling; use the YaRN suggestion"}}};
  return override_snippets(plan, suggestion, edited, views, Engine::vllm);
}

std::string llama_cpp_flags(const Plan& plan, const Suggestion& suggestion) {
  switch (suggestion.method) {
    case SuggestMethod::yarn:
      return fmt::format("--rope-scaling yarn --rope-scale {:.10g} --yarn-orig-ctx {}", suggestion.value,
                         plan.original_tokens);
    case SuggestMethod::linear: return fmt::format("--rope-scaling linear --rope-scale {:.10g}", suggestion.value);
    case SuggestMethod::ntk_base: return fmt::format("--rope-freq-base {:.10g}", suggestion.value);
    case SuggestMethod::llama3_factor: return "";  // the factor lives in the converted file's rope_freqs tensor
  }
  return {};
}

EngineSnippet llama_cpp_snippet(const Plan& plan, const Suggestion& suggestion, const std::vector<EngineView>& views) {
  EngineSnippet snippet;
  snippet.engine = Engine::llama_cpp;
  const ServeFlags& serve = describe(Engine::llama_cpp).serve;
  const std::string flags = llama_cpp_flags(plan, suggestion);
  snippet.command = fmt::format("{} {} {}{}", serve.launch, serve.context_length, plan.target_tokens,
                                flags.empty() ? "" : " " + flags);
  if (suggestion.method == SuggestMethod::llama3_factor)
    snippet.notes.push_back(
        "on a file converted from the edited config.json: convert_hf_to_gguf.py writes the llama3 divisors "
        "into the rope_freqs tensor, which no flag changes");
  const ShortLimit limits = short_limits(views, Engine::llama_cpp, plan.target_tokens);
  if (!limits.labels.empty())
    snippet.notes.push_back(
        fmt::format("llama.cpp warns \"n_ctx_seq ({}) > n_ctx_train ({}) -- possible training "
                    "context overflow\"; expected with runtime scaling",
                    plan.target_tokens, limits.limit_tokens));
  return snippet;
}

}  // namespace

std::vector<EngineSnippet> engine_snippets(const Plan& plan, const Suggestion& suggestion, const Model& edited,
                                           const std::vector<EngineView>& edited_views) {
  std::vector<EngineSnippet> snippets;
  auto wanted = [&](Engine e) { return std::find(plan.engines.begin(), plan.engines.end(), e) != plan.engines.end(); };
  auto add = [&](std::vector<EngineSnippet> more) {
    std::move(more.begin(), more.end(), std::back_inserter(snippets));
  };
  if (wanted(Engine::vllm)) add(vllm_snippets(plan, suggestion, edited, edited_views));
  if (wanted(Engine::sglang)) add(override_snippets(plan, suggestion, edited, edited_views, Engine::sglang));
  if (wanted(Engine::llama_cpp)) snippets.push_back(llama_cpp_snippet(plan, suggestion, edited_views));
  return snippets;
}

}  // namespace ropelens::suggest_detail
