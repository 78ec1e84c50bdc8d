// The header facts gguf-parser-go prints (file_metadata.go, file_architecture.go, file_tokenizer.go), read from
// the key-values and the tensor-info table only.
#include <algorithm>

#include <fmt/format.h>

#include "ropelens/input/gguf.hpp"

namespace ropelens {
namespace {

std::optional<std::string> text_of(const GgufFile& file, std::string_view key) {
  const GgufValue* value = file.find(key);
  const std::string* text = value ? value->as_string() : nullptr;
  return text ? std::optional(*text) : std::nullopt;
}

// A scalar, or the largest entry of a per-layer array (hybrid models store 0 for layers without attention).
std::optional<std::int64_t> integer_of_key(const GgufFile& file, std::string_view key) {
  const GgufValue* value = file.find(key);
  if (!value) return std::nullopt;
  if (auto scalar = value->as_integer()) return scalar;
  const GgufArray* array = value->as_array();
  if (!array) return std::nullopt;
  std::optional<std::int64_t> largest;
  for (const auto& element : array->elements)
    if (auto number = integer_of(element)) largest = std::max(largest.value_or(*number), *number);
  return largest;
}

}  // namespace

GgufMetadata gguf_metadata(const GgufFile& file) {
  GgufMetadata meta;
  meta.architecture = text_of(file, "general.architecture");
  meta.name = text_of(file, "general.name");
  meta.file_type = integer_of_key(file, "general.file_type");
  if (meta.file_type && *meta.file_type >= 0)
    meta.quantization = llama_ftype_name(static_cast<std::uint32_t>(*meta.file_type));
  meta.tensor_count = file.tensor_count;
  meta.parameters = file.tensor_elements;
  meta.size_bytes = file.data_offset <= file.file_size ? file.file_size - file.data_offset : 0;
  meta.tensor_bytes = file.tensor_bytes;
  if (meta.parameters > 0)
    meta.bits_per_weight = static_cast<double>(meta.size_bytes) * 8.0 / static_cast<double>(meta.parameters);
  meta.tokenizer_model = text_of(file, "tokenizer.ggml.model");
  meta.split_count = integer_of_key(file, "split.count");
  if (!meta.architecture) return meta;
  const std::string& arch = *meta.architecture;
  auto key = [&](std::string_view suffix) { return fmt::format("{}.{}", arch, suffix); };
  meta.context_length = integer_of_key(file, key("context_length"));
  meta.embedding_length = integer_of_key(file, key("embedding_length"));
  meta.block_count = integer_of_key(file, key("block_count"));
  meta.head_count = integer_of_key(file, key("attention.head_count"));
  meta.head_count_kv = integer_of_key(file, key("attention.head_count_kv"));
  if (!meta.head_count_kv) meta.head_count_kv = meta.head_count;
  if (auto vocab = integer_of_key(file, key("vocab_size")); vocab && *vocab > 0) {
    meta.vocabulary_size = static_cast<std::uint64_t>(*vocab);
    meta.vocabulary_from = key("vocab_size");
  } else if (const GgufValue* tokens = file.find("tokenizer.ggml.tokens"); tokens && tokens->as_array()) {
    meta.vocabulary_size = tokens->as_array()->count;  // the strings were skipped, their count kept
    meta.vocabulary_from = "tokenizer.ggml.tokens";
  }
  return meta;
}

}  // namespace ropelens
