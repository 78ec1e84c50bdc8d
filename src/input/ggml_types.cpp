// ggml tensor types (ggml/include/ggml.h, block sizes from ggml/src/ggml.c type_traits and ggml-common.h) and
// llama.cpp's file types (include/llama.h llama_ftype). Sources and commits: docs/engines.md, "GGUF metadata".
#include <array>

#include <fmt/format.h>

#include "ropelens/input/gguf.hpp"

namespace ropelens {
namespace {

struct GgmlTypeEntry {
  std::uint32_t id;
  GgmlTypeTraits traits;
};

constexpr std::array<GgmlTypeEntry, 39> kGgmlTypes{{
    {0, {"F32", 1, 4}},
    {1, {"F16", 1, 2}},
    {2, {"Q4_0", 32, 18}},
    {3, {"Q4_1", 32, 20}},
    {6, {"Q5_0", 32, 22}},
    {7, {"Q5_1", 32, 24}},
    {8, {"Q8_0", 32, 34}},
    {9, {"Q8_1", 32, 36}},
    {10, {"Q2_K", 256, 84}},
    {11, {"Q3_K", 256, 110}},
    {12, {"Q4_K", 256, 144}},
    {13, {"Q5_K", 256, 176}},
    {14, {"Q6_K", 256, 210}},
    {15, {"Q8_K", 256, 292}},
    {16, {"IQ2_XXS", 256, 66}},
    {17, {"IQ2_XS", 256, 74}},
    {18, {"IQ3_XXS", 256, 98}},
    {19, {"IQ1_S", 256, 50}},
    {20, {"IQ4_NL", 32, 18}},
    {21, {"IQ3_S", 256, 110}},
    {22, {"IQ2_S", 256, 82}},
    {23, {"IQ4_XS", 256, 136}},
    {24, {"I8", 1, 1}},
    {25, {"I16", 1, 2}},
    {26, {"I32", 1, 4}},
    {27, {"I64", 1, 8}},
    {28, {"F64", 1, 8}},
    {29, {"IQ1_M", 256, 56}},
    {30, {"BF16", 1, 2}},
    {34, {"TQ1_0", 256, 54}},
    {35, {"TQ2_0", 256, 66}},
    {39, {"MXFP4", 32, 17}},
    {40, {"NVFP4", 64, 36}},
    {41, {"Q1_0", 128, 18}},
    {42, {"Q2_0", 64, 18}},
    // Removed from ggml but still found in old files (gguf-parser-go keeps their sizes).
    {31, {"Q4_0_4_4", 32, 18}},
    {32, {"Q4_0_4_8", 32, 18}},
    {33, {"Q4_0_8_8", 32, 18}},
    {36, {"IQ4_NL_4_4", 32, 18}},
}};

// llama_ftype values and the short names gguf-parser-go prints (llama_model_ftype_name without its detail).
constexpr std::array<std::pair<std::uint32_t, std::string_view>, 41> kFileTypes{{
    {0, "F32"},     {1, "F16"},      {2, "Q4_0"},       {3, "Q4_1"},      {4, "Q4_1_SOME_F16"}, {5, "Q4_2"},
    {6, "Q4_3"},    {7, "Q8_0"},     {8, "Q5_0"},       {9, "Q5_1"},      {10, "Q2_K"},         {11, "Q3_K_S"},
    {12, "Q3_K_M"}, {13, "Q3_K_L"},  {14, "Q4_K_S"},    {15, "Q4_K_M"},   {16, "Q5_K_S"},       {17, "Q5_K_M"},
    {18, "Q6_K"},   {19, "IQ2_XXS"}, {20, "IQ2_XS"},    {21, "Q2_K_S"},   {22, "IQ3_XS"},       {23, "IQ3_XXS"},
    {24, "IQ1_S"},  {25, "IQ4_NL"},  {26, "IQ3_S"},     {27, "IQ3_M"},    {28, "IQ2_S"},        {29, "IQ2_M"},
    {30, "IQ4_XS"}, {31, "IQ1_M"},   {32, "BF16"},      {33, "Q4_0_4_4"}, {34, "Q4_0_4_8"},     {35, "Q4_0_8_8"},
    {36, "TQ1_0"},  {37, "TQ2_0"},   {38, "MXFP4_MOE"}, {39, "NVFP4"},    {40, "Q1_0"},
}};

constexpr std::uint32_t kFileTypeGuessed = 1024;  // LLAMA_FTYPE_GUESSED, OR'ed into the value

}  // namespace

const GgmlTypeTraits* ggml_type_traits(std::uint32_t type) {
  for (const auto& entry : kGgmlTypes)
    if (entry.id == type) return &entry.traits;
  return nullptr;
}

std::string ggml_type_name(std::uint32_t type) {
  const GgmlTypeTraits* traits = ggml_type_traits(type);
  return traits ? std::string(traits->name) : fmt::format("type {}", type);
}

std::optional<std::uint64_t> ggml_tensor_bytes(std::uint32_t type, std::uint64_t elements) {
  const GgmlTypeTraits* traits = ggml_type_traits(type);
  if (!traits) return std::nullopt;
  const std::uint64_t blocks = elements / traits->block_values + (elements % traits->block_values != 0);
  return blocks * traits->block_bytes;
}

std::string llama_ftype_name(std::uint32_t file_type) {
  const bool guessed = (file_type & kFileTypeGuessed) != 0;
  const std::uint32_t base = file_type & ~kFileTypeGuessed;
  for (const auto& [id, name] : kFileTypes)
    if (id == base) return guessed ? fmt::format("{} (guessed)", name) : std::string(name);
  return fmt::format("ftype {}", file_type);
}

}  // namespace ropelens
