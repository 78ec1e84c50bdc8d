// The known base models: one table, read by the audit and by docs/known-bases.md.
#include "ropelens/audit/known_bases.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>

#include <fmt/format.h>

namespace ropelens {
namespace {

using enum RopeType;

// Lengths: `declared` is max_position_embeddings of the released config, `native` what the card states was
// trained before any scaling. The audit bounds a fine-tune by `declared`: the vendor's own config never fires.
constexpr std::array kBases{
    // clang-format off
    KnownBase{"Llama-2-7B", "Llama 2", "llama", "llama", 4096, 32, 32, 32000, 10000.0, default_rope, 0, 4096, 4096, "https://huggingface.co/meta-llama/Llama-2-7b-hf"},
    KnownBase{"Llama-2-13B", "Llama 2", "llama", "llama", 5120, 40, 40, 32000, 10000.0, default_rope, 0, 4096, 4096, "https://huggingface.co/meta-llama/Llama-2-13b-hf"},
    KnownBase{"Llama-2-70B", "Llama 2", "llama", "llama", 8192, 80, 64, 32000, 10000.0, default_rope, 0, 4096, 4096, "https://huggingface.co/meta-llama/Llama-2-70b-hf"},
    KnownBase{"Meta-Llama-3-8B", "Llama 3", "llama", "llama", 4096, 32, 32, 128256, 500000.0, default_rope, 0, 8192, 8192, "https://huggingface.co/meta-llama/Meta-Llama-3-8B"},
    KnownBase{"Meta-Llama-3-70B", "Llama 3", "llama", "llama", 8192, 80, 64, 128256, 500000.0, default_rope, 0, 8192, 8192, "https://huggingface.co/meta-llama/Meta-Llama-3-70B"},
    KnownBase{"Llama-3.1-8B", "Llama 3.1", "llama", "llama", 4096, 32, 32, 128256, 500000.0, llama3, 8.0, 131072, 8192, "https://huggingface.co/meta-llama/Llama-3.1-8B"},
    KnownBase{"Llama-3.1-70B", "Llama 3.1", "llama", "llama", 8192, 80, 64, 128256, 500000.0, llama3, 8.0, 131072, 8192, "https://huggingface.co/meta-llama/Llama-3.1-70B"},
    KnownBase{"Llama-3.3-70B", "Llama 3.3", "llama", "llama", 8192, 80, 64, 128256, 500000.0, llama3, 8.0, 131072, 8192, "https://huggingface.co/meta-llama/Llama-3.3-70B-Instruct"},
    KnownBase{"Llama-3.1-405B", "Llama 3.1", "llama", "llama", 16384, 126, 128, 128256, 500000.0, llama3, 8.0, 131072, 8192, "https://huggingface.co/meta-llama/Llama-3.1-405B"},
    KnownBase{"Llama-3.2-1B", "Llama 3.2", "llama", "llama", 2048, 16, 32, 128256, 500000.0, llama3, 32.0, 131072, 8192, "https://huggingface.co/meta-llama/Llama-3.2-1B"},
    KnownBase{"Llama-3.2-3B", "Llama 3.2", "llama", "llama", 3072, 28, 24, 128256, 500000.0, llama3, 32.0, 131072, 8192, "https://huggingface.co/meta-llama/Llama-3.2-3B"},
    KnownBase{"Qwen2-7B", "Qwen2", "qwen2", "qwen2", 3584, 28, 28, 152064, 1000000.0, default_rope, 0, 131072, 32768, "https://huggingface.co/Qwen/Qwen2-7B"},
    KnownBase{"Qwen2.5-7B", "Qwen2.5", "qwen2", "qwen2", 3584, 28, 28, 152064, 1000000.0, default_rope, 0, 131072, 32768, "https://huggingface.co/Qwen/Qwen2.5-7B"},
    KnownBase{"Qwen2.5-3B", "Qwen2.5", "qwen2", "qwen2", 2048, 36, 16, 151936, 1000000.0, default_rope, 0, 32768, 32768, "https://huggingface.co/Qwen/Qwen2.5-3B"},
    KnownBase{"Qwen2.5-32B", "Qwen2.5", "qwen2", "qwen2", 5120, 64, 40, 152064, 1000000.0, default_rope, 0, 131072, 32768, "https://huggingface.co/Qwen/Qwen2.5-32B"},
    KnownBase{"Qwen2.5-72B", "Qwen2.5", "qwen2", "qwen2", 8192, 80, 64, 152064, 1000000.0, default_rope, 0, 131072, 32768, "https://huggingface.co/Qwen/Qwen2.5-72B"},
    KnownBase{"Qwen3-0.6B", "Qwen3", "qwen3", "qwen3", 1024, 28, 16, 151936, 1000000.0, default_rope, 0, 40960, 32768, "https://huggingface.co/Qwen/Qwen3-0.6B"},
    KnownBase{"Qwen3-1.7B", "Qwen3", "qwen3", "qwen3", 2048, 28, 16, 151936, 1000000.0, default_rope, 0, 40960, 32768, "https://huggingface.co/Qwen/Qwen3-1.7B"},
    KnownBase{"Qwen3-4B", "Qwen3", "qwen3", "qwen3", 2560, 36, 32, 151936, 1000000.0, default_rope, 0, 40960, 32768, "https://huggingface.co/Qwen/Qwen3-4B"},
    KnownBase{"Qwen3-8B", "Qwen3", "qwen3", "qwen3", 4096, 36, 32, 151936, 1000000.0, default_rope, 0, 40960, 32768, "https://huggingface.co/Qwen/Qwen3-8B"},
    KnownBase{"Qwen3-14B", "Qwen3", "qwen3", "qwen3", 5120, 40, 40, 151936, 1000000.0, default_rope, 0, 40960, 32768, "https://huggingface.co/Qwen/Qwen3-14B"},
    KnownBase{"Qwen3-32B", "Qwen3", "qwen3", "qwen3", 5120, 64, 64, 151936, 1000000.0, default_rope, 0, 40960, 32768, "https://huggingface.co/Qwen/Qwen3-32B"},
    KnownBase{"Qwen3-30B-A3B", "Qwen3", "qwen3_moe", "qwen3moe", 2048, 48, 32, 151936, 1000000.0, default_rope, 0, 40960, 32768, "https://huggingface.co/Qwen/Qwen3-30B-A3B"},
    KnownBase{"Qwen3-235B-A22B", "Qwen3", "qwen3_moe", "qwen3moe", 4096, 94, 64, 151936, 1000000.0, default_rope, 0, 40960, 32768, "https://huggingface.co/Qwen/Qwen3-235B-A22B"},
    KnownBase{"Mistral-7B-v0.2", "Mistral", "mistral", "llama", 4096, 32, 32, 32000, 1000000.0, default_rope, 0, 32768, 32768, "https://huggingface.co/mistralai/Mistral-7B-Instruct-v0.2"},
    KnownBase{"Mistral-7B-v0.3", "Mistral", "mistral", "llama", 4096, 32, 32, 32768, 1000000.0, default_rope, 0, 32768, 32768, "https://huggingface.co/mistralai/Mistral-7B-v0.3"},
    KnownBase{"Mixtral-8x7B", "Mixtral", "mixtral", "llama", 4096, 32, 32, 32000, 1000000.0, default_rope, 0, 32768, 32768, "https://huggingface.co/mistralai/Mixtral-8x7B-v0.1"},
    KnownBase{"Mixtral-8x22B", "Mixtral", "mixtral", "llama", 6144, 56, 48, 32000, 1000000.0, default_rope, 0, 65536, 65536, "https://huggingface.co/mistralai/Mixtral-8x22B-v0.1"},
    KnownBase{"Gemma-2-2B", "Gemma 2", "gemma2", "gemma2", 2304, 26, 8, 256000, 10000.0, default_rope, 0, 8192, 8192, "https://huggingface.co/google/gemma-2-2b"},
    KnownBase{"Gemma-2-9B", "Gemma 2", "gemma2", "gemma2", 3584, 42, 16, 256000, 10000.0, default_rope, 0, 8192, 8192, "https://huggingface.co/google/gemma-2-9b"},
    KnownBase{"Gemma-2-27B", "Gemma 2", "gemma2", "gemma2", 4608, 46, 32, 256000, 10000.0, default_rope, 0, 8192, 8192, "https://huggingface.co/google/gemma-2-27b"},
    KnownBase{"Gemma-3-1B", "Gemma 3", "gemma3_text", "gemma3", 1152, 26, 4, 262144, 1000000.0, default_rope, 0, 32768, 32768, "https://huggingface.co/google/gemma-3-1b-pt"},
    KnownBase{"Gemma-3-4B", "Gemma 3", "gemma3_text", "gemma3", 2560, 34, 8, 262208, 1000000.0, linear, 8.0, 131072, 32768, "https://huggingface.co/google/gemma-3-4b-pt"},
    KnownBase{"Gemma-3-12B", "Gemma 3", "gemma3_text", "gemma3", 3840, 48, 16, 262208, 1000000.0, linear, 8.0, 131072, 32768, "https://huggingface.co/google/gemma-3-12b-pt"},
    KnownBase{"Gemma-3-27B", "Gemma 3", "gemma3_text", "gemma3", 5376, 62, 32, 262208, 1000000.0, linear, 8.0, 131072, 32768, "https://huggingface.co/google/gemma-3-27b-pt"},
    KnownBase{"Phi-3-mini-4k", "Phi-3", "phi3", "phi3", 3072, 32, 32, 32064, 10000.0, default_rope, 0, 4096, 4096, "https://huggingface.co/microsoft/Phi-3-mini-4k-instruct"},
    KnownBase{"Phi-3-mini-128k", "Phi-3", "phi3", "phi3", 3072, 32, 32, 32064, 10000.0, longrope, 0, 131072, 4096, "https://huggingface.co/microsoft/Phi-3-mini-128k-instruct"},
    KnownBase{"Phi-3.5-mini", "Phi-3", "phi3", "phi3", 3072, 32, 32, 32064, 10000.0, longrope, 0, 131072, 4096, "https://huggingface.co/microsoft/Phi-3.5-mini-instruct"},
    KnownBase{"Phi-4", "Phi-4", "phi3", "phi3", 5120, 40, 40, 100352, 250000.0, default_rope, 0, 16384, 16384, "https://huggingface.co/microsoft/phi-4"},
    KnownBase{"DeepSeek-V3", "DeepSeek", "deepseek_v3", "deepseek2", 7168, 61, 128, 129280, 10000.0, yarn, 40.0, 163840, 4096, "https://huggingface.co/deepseek-ai/DeepSeek-V3"},
    KnownBase{"DeepSeek-V2-Lite", "DeepSeek", "deepseek_v2", "deepseek2", 2048, 27, 16, 102400, 10000.0, yarn, 40.0, 163840, 4096, "https://huggingface.co/deepseek-ai/DeepSeek-V2-Lite"},
    KnownBase{"GLM-4.5", "GLM", "glm4_moe", "glm4moe", 5120, 92, 96, 151552, 1000000.0, default_rope, 0, 131072, 131072, "https://huggingface.co/zai-org/GLM-4.5"},
    KnownBase{"OLMo-3.1-32B", "OLMo", "olmo3", "olmo2", 5120, 64, 40, 100278, 500000.0, yarn, 8.0, 65536, 8192, "https://huggingface.co/allenai/Olmo-3.1-32B-Instruct"},
    KnownBase{"SmolLM3-3B", "SmolLM", "smollm3", "smollm3", 2048, 36, 16, 128256, 5000000.0, default_rope, 0, 65536, 65536, "https://huggingface.co/HuggingFaceTB/SmolLM3-3B"},
    KnownBase{"Granite-3.1-1B-A400M", "Granite", "granitemoe", "granitemoe", 1024, 24, 16, 49155, 1500000.0, default_rope, 0, 131072, 131072, "https://huggingface.co/ibm-granite/granite-3.1-1b-a400m-instruct"},
    // clang-format on
};

bool same_number(double a, double b) { return std::fabs(a - b) <= 1e-9 * std::max(std::fabs(a), std::fabs(b)); }

bool rope_matches(const KnownBase& base, const Model& model) {
  return std::any_of(model.setups.begin(), model.setups.end(), [&](const RopeSetup& s) {
    if (s.type != base.rope_type || !same_number(s.rope_theta.value, base.rope_theta)) return false;
    if (base.factor > 0.0) return s.factor && same_number(s.factor->value, base.factor);
    return true;
  });
}

// A config names its model_type; a GGUF file the llama.cpp architecture its converter chose for it.
bool type_matches(const KnownBase& base, const Model& model) {
  return model.model_type.value == (model.gguf ? base.gguf_arch : base.model_type);
}

bool shape_matches(const KnownBase& base, const Model& model) {
  if (!type_matches(base, model)) return false;
  if (!model.hidden_size || model.hidden_size->value != base.hidden_size) return false;
  if (model.num_layers.value != base.num_layers) return false;
  if (!model.num_attention_heads || model.num_attention_heads->value != base.num_attention_heads) return false;
  // The vocabulary is what a fine-tune keeps most surely; a config without one is too little to go on.
  if (base.vocab_size > 0 && (!model.vocab_size || model.vocab_size->value != base.vocab_size)) return false;
  return rope_matches(base, model);
}

// Letters and digits only, lowered: "Qwen3-8B", "qwen3_8b" and a GGUF's general.name "Qwen3 8B" are one name.
std::string lowered(std::string_view text) {
  std::string out;
  for (unsigned char c : text)
    if (std::isalnum(c)) out.push_back(static_cast<char>(std::tolower(c)));
  return out;
}

// "Qwen3-8B" is found in "Qwen3-8B-Long-sft" too: a candidate whose name lies inside a longer found one is not the
// one the config names.
bool named_inside_another(const KnownBase& base, const std::vector<const KnownBase*>& found) {
  const std::string name = lowered(base.name);
  return std::any_of(found.begin(), found.end(), [&](const KnownBase* other) {
    const std::string longer = lowered(other->name);
    return longer.size() > name.size() && longer.find(name) != std::string::npos;
  });
}

}  // namespace

std::span<const KnownBase> known_bases() { return kBases; }

bool BaseMatch::ambiguous() const {
  return std::any_of(candidates.begin(), candidates.end(),
                     [&](const KnownBase* b) { return b->declared != candidates.front()->declared; });
}

std::string BaseMatch::names() const {
  std::string out;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    if (i > 0) out += i + 1 == candidates.size() ? " or " : ", ";
    out += candidates[i]->name;
  }
  return out;
}

BaseMatch match_known_base(const Model& model) { return match_known_base(model, kBases); }

BaseMatch match_known_base(const Model& model, std::span<const KnownBase> bases) {
  BaseMatch match;
  for (const KnownBase& base : bases)
    if (shape_matches(base, model)) match.candidates.push_back(&base);
  if (match.candidates.size() > 1 && model.name_or_path) {
    const std::string named = lowered(model.name_or_path->value);
    std::vector<const KnownBase*> narrowed;
    for (const KnownBase* b : match.candidates)
      if (named.find(lowered(b->name)) != std::string::npos) narrowed.push_back(b);
    std::erase_if(narrowed, [&](const KnownBase* b) { return named_inside_another(*b, narrowed); });
    if (!narrowed.empty()) match.candidates = std::move(narrowed);
  }
  return match;
}

std::string known_bases_markdown() {
  std::string out =
      "| Base | model_type | GGUF architecture | hidden | layers | heads | vocab | rope_theta | RoPE | declared | "
      "native "
      "| card |\n"
      "|---|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const KnownBase& b : kBases) {
    std::string rope(to_string(b.rope_type));
    if (b.factor > 0.0) rope += fmt::format(" ×{}", b.factor);
    out += fmt::format("| {} | `{}` | `{}` | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n", b.name, b.model_type,
                       b.gguf_arch, b.hidden_size, b.num_layers, b.num_attention_heads, b.vocab_size, b.rope_theta,
                       rope, b.declared, b.native, b.card);
  }
  return out;
}

}  // namespace ropelens
