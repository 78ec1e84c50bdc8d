// A GGUF file (or an Ollama model's blob) is changed at run time: each suggestion becomes llama.cpp flags, and
// each flag stands for the GGUF key llama.cpp would otherwise read (llama-context.cpp: --rope-scaling replaces
// rope.scaling.type, --rope-scale the factor, --yarn-orig-ctx original_context_length, --rope-freq-base
// rope.freq_base; --override-kv rewrites any key, here context_length, so n_ctx_train covers -c). suggest verifies
// the suggestion by check on the file's metadata with those keys set, read as check reads the file.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "llama_cpp.hpp"

namespace ropelens::engine_detail {
namespace {

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

std::string arch_of(const GgufFile& file, const Model& model) {
  const GgufValue* arch = file.find("general.architecture");
  return arch && arch->as_string() ? *arch->as_string() : model.model_type.value;
}

// The length the change reaches, as the config.json form declares it.
std::int64_t reached_length(const RopeChange& change) {
  if (change.method == RopeChangeMethod::ntk_base) return change.target_tokens;
  return std::max(
      change.target_tokens,
      static_cast<std::int64_t>(std::ceil(static_cast<double>(change.original_tokens) * change.value - 1e-9)));
}

std::vector<GgufFlag> gguf_flags(const GgufFile& file, const Model& model, const RopeChange& change) {
  const std::string arch = arch_of(file, model);
  const std::string prefix = arch + ".";
  std::vector<GgufFlag> flags;
  flags.push_back(
      {fmt::format("{} {}", engine_row(Engine::llama_cpp).serve.context_length, change.target_tokens), "", {}});
  switch (change.method) {
    case RopeChangeMethod::yarn:
    case RopeChangeMethod::linear: {
      const bool yarn = change.method == RopeChangeMethod::yarn;
      flags.push_back({fmt::format("--rope-scaling {}", yarn ? "yarn" : "linear"), prefix + "rope.scaling.type",
                       text_value(yarn ? "yarn" : "linear")});
      flags.push_back({fmt::format("--rope-scale {:.10g}", change.value), prefix + "rope.scaling.factor",
                       float_value(change.value)});
      if (yarn)
        flags.push_back({fmt::format("--yarn-orig-ctx {}", change.original_tokens),
                         prefix + "rope.scaling.original_context_length", length_value(change.original_tokens)});
      break;
    }
    case RopeChangeMethod::ntk_base:
      flags.push_back({fmt::format("--rope-freq-base {:.10g}", change.value), prefix + "rope.freq_base",
                       float_value(change.value)});
      break;
    case RopeChangeMethod::llama3_factor: break;  // not offered for a GGUF file: no flag changes rope_freqs
  }
  const std::int64_t reached = reached_length(change);
  if (model.max_position_embeddings.value < reached)
    flags.push_back({fmt::format("--override-kv {}.context_length=int:{}", arch, reached), prefix + "context_length",
                     length_value(reached)});
  return flags;
}

std::string gguf_command(const std::string& quoted_path, const std::vector<GgufFlag>& flags) {
  std::vector<std::string> typed;
  for (const GgufFlag& flag : flags) typed.push_back(flag.flag);
  return fmt::format("{} {}", launch_command(engine_row(Engine::llama_cpp).serve, quoted_path), fmt::join(typed, " "));
}

}  // namespace

const GgufRuntime kLlamaCppGguf = {.flags = gguf_flags, .command = gguf_command};

}  // namespace ropelens::engine_detail
