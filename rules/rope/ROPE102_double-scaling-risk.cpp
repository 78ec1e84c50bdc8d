#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "../support.hpp"

namespace ropelens::rules {
namespace rope102 {

// The original length the config states for this setup, if any (a top-level key or the RoPE dict's).
static std::optional<Field<std::int64_t>> stated_original(const Model& model, const RopeSetup& s) {
  if (s.original_max_position_embeddings && s.original_max_position_embeddings->from.origin == Origin::config)
    return s.original_max_position_embeddings;
  if (model.original_max_position_embeddings && model.original_max_position_embeddings->from.origin == Origin::config)
    return model.original_max_position_embeddings;
  return std::nullopt;
}

// The views of the stack whose derived length multiplies the declared one by the factor again ("vLLM ≤ 0.21,
// SGLang"): the engines the risk is about. An engine of the stack that keeps the declared length is not at risk.
static std::vector<std::string> multiplying(const Context& cx, std::int64_t engine_tokens) {
  std::vector<std::string> labels;
  for (const EngineView& view : cx.engine_views())
    if (cx.deployment.serves(engine_of(view.version)) && view.length.limit_tokens &&
        std::llabs(*view.length.limit_tokens - engine_tokens) <= 1)
      labels.push_back(view.label);
  return labels;
}

// vLLM's LinearScalingRotaryEmbedding, whose cos/sin cache for gemma3 is the one at risk, is in the stack.
static bool vllm_in_stack(const Context& cx) {
  return std::any_of(cx.engine_views().begin(), cx.engine_views().end(), [&](const EngineView& view) {
    return cx.deployment.serves(engine_of(view.version)) && view.label.starts_with("vLLM");
  });
}

static void check(const Context& cx, Sink& out) {
  for (int i : distinct_dict_setups(cx.model)) {
    const RopeSetup& s = cx.model.setups[static_cast<std::size_t>(i)];
    if ((s.type != RopeType::linear && s.type != RopeType::dynamic) || !s.factor || s.factor->value <= 1.0) continue;
    const double factor = s.factor->value;
    const auto declared = s.max_position_embeddings.value;
    const double multiplied = static_cast<double>(declared) * factor;
    // No engine serves a length past 2^53 tokens (the engines' lengths saturate there or at int64), and the rounding
    // below would overflow; what such a factor does is other rules' finding.
    if (!(multiplied < 0x1p53)) continue;
    const auto engine_tokens = static_cast<std::int64_t>(std::llround(multiplied));
    auto original = stated_original(cx.model, s);
    std::string why;
    if (original) {
      if (std::abs(static_cast<double>(original->value) * factor - static_cast<double>(declared)) > 1.0) continue;
      why = fmt::format("already equals original_max_position_embeddings {} × {} factor {}", original->value,
                        to_string(s.type), number(factor));
    } else if (s.type == RopeType::linear) {
      why = fmt::format("is read as the length after linear factor {} ({} × {})", number(factor),
                        number(static_cast<double>(declared) / factor), number(factor));
    } else {
      continue;  // dynamic NTK treats max_position_embeddings as the pretraining length
    }
    // vLLM keeps max_model_len for gemma3 (_get_and_verify_max_len skips rope scaling for it), but
    // LinearScalingRotaryEmbedding still builds max_position × factor rows, and torch.compile then fails on the
    // size (vllm-project/vllm#33911, open).
    const bool gemma3 = cx.model.model_type.value.find("gemma3") != std::string::npos;
    const std::vector<std::string> engines = multiplying(cx, engine_tokens);
    if (gemma3 ? !vllm_in_stack(cx) : engines.empty()) continue;  // no engine of the stack multiplies it again
    Finding finding = out.report(
        s.factor->from.pointer,
        gemma3 ? fmt::format("max_position_embeddings {} {}, yet vLLM's LinearScalingRotaryEmbedding multiplies it by "
                             "{} again: a {}-row cos/sin cache for a {}-token max_model_len, on which vLLM fails at "
                             "startup under torch.compile (\"AssertionError: expected size {}=={}\", "
                             "vllm-project/vllm#33911, open: Gemma3ForConditionalGeneration on vLLM main 4403e3ed4 "
                             "with PyTorch 2.9.1, and 2.10)",
                             declared, why, number(factor), engine_tokens, declared, engine_tokens, declared)
               : fmt::format("max_position_embeddings {} {}, yet {} multipl{} it by {} again: {} positions in the "
                             "length {} derive{}",
                             declared, why, fmt::join(engines, ", "), engines.size() == 1 ? "ies" : "y", number(factor),
                             engine_tokens, engines.size() == 1 ? "it" : "they", engines.size() == 1 ? "s" : ""));
    finding
        .help(gemma3 ? std::string("--max-model-len does not avoid it (the issue reproduces with 4096): serve without "
                                   "torch.compile (vLLM -O0) until vllm#33911 is fixed, or on llama.cpp, whose "
                                   "cos/sin are computed per position; cap SGLang with --context-length")
                     : fmt::format("cap the served length explicitly (vLLM --max-model-len {}, SGLang --context-length "
                                   "{}) instead of letting engines derive it from max_position_embeddings × factor",
                                   declared, declared))
        .related(s.max_position_embeddings.from.pointer)
        .fact("factor", factor)
        .fact("max_position_embeddings", declared)
        .fact("vllm_length", engine_tokens)
        .fact("engines", engines);
    if (original) finding.related(original->from.pointer).fact("original_max_position_embeddings", original->value);
  }
}

}  // namespace rope102

extern const Rule ROPE102{{"ROPE102", "double-scaling-risk", Severity::warning,
                           "max_position_embeddings already includes a factor that engines multiply in again"},
                          &rope102::check};

}  // namespace ropelens::rules
