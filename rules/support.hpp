// Shared by rule files: small helpers that keep each rule a few lines long.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "ropelens/engines/kv_cache.hpp"
#include "ropelens/rules/rule.hpp"
#include "ropelens/model/text.hpp"

namespace ropelens::rules {

// Calls `report(pointer, detail)` for every issue of one kind that normalize recorded, in the order it met them.
template <class Detail, class Report> void for_each_issue(const Model& model, Report&& report) {
  for (const auto& issue : model.issues)
    if (const auto* detail = std::get_if<Detail>(&issue.detail)) report(issue.pointer, *detail);
}

// True when the audit could not compute pair figures: rules that count or compare pairs stay silent, and
// CFG001 or CFG003 says why.
inline bool pair_figures_missing(const Context& cx) { return cx.audit.pair_figures_missing().has_value(); }

// The key a length was read from, as messages name it: max_position_embeddings when it was not read from the config.
inline std::string length_key_name(const Provenance& from) {
  return from.origin == Origin::config ? from.key() : "max_position_embeddings";
}

// A setup's short label for messages: "setup full_attention (layers 5, 11, …)".
std::string setup_label(const Model& model, int setup);

// "" for a model with one setup, else "full_attention layers: ", to start a message about one setup.
std::string setup_prefix(const Model& model, int setup);

// One setup per distinct RoPE dict (a flat dict split by attention kind yields several setups), so a rule
// about the dict's parameters reports it once.
std::vector<int> distinct_dict_setups(const Model& model);

// The pointer of a value when the config holds it, else the fallback (e.g. the RoPE dict).
std::string pointer_or(const Provenance& from, const std::string& fallback);

// DeepSeek-style (MLA) attention multiplies its softmax scale by mscale²; other attention does not.
bool scales_softmax_by_mscale(const Model& model);

// Whether differences involving this view matter to a deployment: every engine version does, except the older
// versions of a library people upgrade (transformers: its registry row's older_versions) unless the stack pins one.
// On a launch line only the launched engine's views are deployed.
bool deployed(const Context& cx, const EngineView& view);

// ", past the 2048 tokens the model was trained at (seq_length)" for a served limit longer than every training
// phase the audit read (pretraining or extension, any setup) when no setup scales its RoPE, so the positions past
// it run unscaled frequencies through angles never seen in training; "" otherwise.
std::string past_trained(const Context& cx, std::int64_t limit_tokens);

// Reports each difference of one aspect between a GGUF file and what the converter writes for its source config
// (Context::conversion_audit), at the GGUF key, naming the config key, with the remedy the audit found for it as
// help: the GGUF conversion rules.
void report_conversion(const Context& cx, ConversionAspect aspect, Sink& out);

// Reports each launch-line problem of one kind (Context::launch, as the engine's parser found it) at its flag,
// with the flag and the whole line as facts.
void report_launch_problems(const Context& cx, LaunchProblemKind kind, Sink& out);

// What one engine's budget is asked for, the same in CTX210 and SRV505 (and fit's): --memory per GPU, the
// deployment's tensor parallelism (a launch line's own --tensor-parallel-size/--tp-size when it sets one: check
// puts it in Context::tensor_parallel), the cache dtype, and the launch line's memory fraction.
BudgetRequest budget_request(const Context& cx);
// The tokens the engine's KV cache holds at the target: a launch's cache for every sequence together when it
// states one (Ollama's num_ctx × OLLAMA_NUM_PARALLEL), else the target.
std::int64_t cached_tokens(const Context& cx);

// A value as people write it: up to 7 significant digits, no trailing zeros ("4", "1.25", "1000000").
std::string number(double value);

// "27.1°"
std::string degrees(double value);

// A tensor of one decoder layer of the language model: "model.layers.12.self_attn.q_proj.weight" is layer 12 with
// the rest "self_attn.q_proj.weight"; a GGUF's "blk.12.attn_q.weight" is layer 12 with the rest "attn_q.weight".
// Vision towers and other stacks (their own prefixes) are not layers here.
struct LayerTensor {
  std::string_view prefix;  // "model.layers."
  int layer = 0;
  std::string_view rest;
};
std::optional<LayerTensor> language_layer_tensor(std::string_view name);

// "[4096, 5120]"
std::string shape_text(const std::vector<std::uint64_t>& shape);

}  // namespace ropelens::rules
