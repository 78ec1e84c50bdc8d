// A GGUF file (or an Ollama model's blob) is changed at run time: each suggestion becomes llama.cpp flags, and
// each flag stands for the GGUF key llama.cpp would otherwise read (llama-context.cpp: --rope-scaling replaces
// rope.scaling.type, --rope-scale the factor, --yarn-orig-ctx original_context_length, --rope-freq-base
// rope.freq_base; --override-kv rewrites any key, here context_length, so n_ctx_train covers -c). The
// suggestion is verified by check on the file's metadata with those keys set, read as check reads the file.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "ropelens/normalize/normalize.hpp"
#include "ropelens/engines/engine_descriptor.hpp"
#include "suggesting.hpp"

namespace ropelens::suggest_detail {
namespace {

struct FlagEdit {
  std::string flags;  // as typed on llama.cpp's command line
  std::string key;    // the GGUF key (after "{arch}.") it stands for; "" for -c
  GgufValue value;
};

GgufValue text_value(const std::string& text) {
  GgufValue value;
  value.type = GgufType::string;
  value.data = text;
  value.string_bytes = text.size();
  return value;
}

GgufValue float_value(double number) {
  GgufValue value;
  value.type = GgufType::float32;
  value.data = GgufScalar{static_cast<double>(static_cast<float>(number))};
  return value;
}

GgufValue length_value(std::int64_t tokens) {
  GgufValue value;
  value.type = GgufType::uint32;
  value.data = GgufScalar{static_cast<std::uint64_t>(tokens)};
  return value;
}

std::string arch_of(const Plan& plan) {
  const GgufValue* arch = plan.gguf->find("general.architecture");
  return arch && arch->as_string() ? *arch->as_string() : plan.model->model_type.value;
}

// The length the change reaches, as the config.json form declares it.
std::int64_t reached_length(const Plan& plan, const Suggestion& suggestion) {
  if (suggestion.method == SuggestMethod::ntk_base) return plan.target_tokens;
  return std::max(
      plan.target_tokens,
      static_cast<std::int64_t>(std::ceil(static_cast<double>(plan.original_tokens) * suggestion.value - 1e-9)));
}

std::vector<FlagEdit> flag_edits(const Plan& plan, const Suggestion& suggestion) {
  const std::string arch = arch_of(plan);
  std::vector<FlagEdit> edits;
  edits.push_back({fmt::format("{} {}", describe(Engine::llama_cpp).serve.context_length, plan.target_tokens), "", {}});
  switch (suggestion.method) {
    case SuggestMethod::yarn:
    case SuggestMethod::linear: {
      const bool yarn = suggestion.method == SuggestMethod::yarn;
      edits.push_back({fmt::format("--rope-scaling {}", yarn ? "yarn" : "linear"), "rope.scaling.type",
                       text_value(yarn ? "yarn" : "linear")});
      edits.push_back({fmt::format("--rope-scale {:.10g}", suggestion.value), "rope.scaling.factor",
                       float_value(suggestion.value)});
      if (yarn)
        edits.push_back({fmt::format("--yarn-orig-ctx {}", plan.original_tokens),
                         "rope.scaling.original_context_length", length_value(plan.original_tokens)});
      break;
    }
    case SuggestMethod::ntk_base:
      edits.push_back(
          {fmt::format("--rope-freq-base {:.10g}", suggestion.value), "rope.freq_base", float_value(suggestion.value)});
      break;
    case SuggestMethod::llama3_factor: break;  // not offered for a GGUF file: no flag changes rope_freqs
  }
  const std::int64_t reached = reached_length(plan, suggestion);
  if (plan.model->max_position_embeddings.value < reached)
    edits.push_back({fmt::format("--override-kv {}.context_length=int:{}", arch, reached), "context_length",
                     length_value(reached)});
  return edits;
}

}  // namespace

GgufFile with_flags(const Plan& plan, const Suggestion& suggestion) {
  GgufFile file = *plan.gguf;
  const std::string arch = arch_of(plan);
  for (const FlagEdit& edit : flag_edits(plan, suggestion))
    if (!edit.key.empty()) file.kv[arch + "." + edit.key] = edit.value;
  return file;
}

std::string llama_cpp_gguf_flags(const Plan& plan, const Suggestion& suggestion) {
  std::vector<std::string> flags;
  for (const FlagEdit& edit : flag_edits(plan, suggestion)) flags.push_back(edit.flags);
  return fmt::format("{}", fmt::join(flags, " "));
}

}  // namespace ropelens::suggest_detail
