// GGUF (llama.cpp model files): the header only — metadata and the few float32 tensors that carry RoPE factors.
// Reading never touches the weights, so a multi-gigabyte file is read in milliseconds.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace ropelens {

// Value type ids as stored in the file.
enum class GgufType : std::uint32_t {
  uint8 = 0,
  int8 = 1,
  uint16 = 2,
  int16 = 3,
  uint32 = 4,
  int32 = 5,
  float32 = 6,
  boolean = 7,
  string = 8,
  array = 9,
  uint64 = 10,
  int64 = 11,
  float64 = 12,
};
std::string_view to_string(GgufType type);

// One number or bool: integers keep their signedness, floats are widened to double.
using GgufScalar = std::variant<std::uint64_t, std::int64_t, double, bool>;
std::optional<std::int64_t> integer_of(const GgufScalar& scalar);  // integers that fit in int64
std::optional<double> number_of(const GgufScalar& scalar);         // integers and floats
std::optional<bool> bool_of(const GgufScalar& scalar);

struct GgufArray {
  GgufType element_type = GgufType::uint8;
  std::uint64_t count = 0;
  // Numeric and bool arrays of at most kGgufMaxKeptArrayElements; empty for strings and longer arrays.
  std::vector<GgufScalar> elements;
  bool kept() const { return elements.size() == count; }
};

struct GgufValue {
  GgufType type = GgufType::uint8;
  std::uint64_t offset = 0;  // byte offset of the key-value pair in the file
  // A string longer than kGgufMaxKeptStringBytes is skipped: it holds "" and string_bytes keeps its length.
  std::variant<GgufScalar, std::string, GgufArray> data;
  std::uint64_t string_bytes = 0;

  std::optional<std::int64_t> as_integer() const;  // any integer type whose value fits in int64
  std::optional<double> as_number() const;         // any integer or float type
  std::optional<bool> as_bool() const;
  const std::string* as_string() const;  // nullptr unless a kept string
  const GgufArray* as_array() const;
};

// One entry of the tensor-info table. Dims are as stored, fastest-varying first: the reverse of a torch shape
// (a [4096, 1024] k_proj.weight is stored as {1024, 4096}).
struct GgufTensorInfo {
  std::string name;
  std::vector<std::uint64_t> dims;
  std::uint32_t ggml_type = 0;
  std::uint64_t data_offset = 0;  // relative to the data section
  std::uint64_t info_offset = 0;  // where its entry in the info table starts
  std::uint64_t elements() const;
  std::vector<std::uint64_t> torch_shape() const;  // dims reversed
};

struct GgufFile {
  std::string path;  // as shown to users
  std::uint64_t file_size = 0;
  std::uint32_t version = 0;
  std::uint64_t tensor_count = 0;
  std::uint64_t kv_count = 0;
  std::uint32_t alignment = 32;
  std::uint64_t data_offset = 0;  // where the tensor data section starts
  std::map<std::string, GgufValue, std::less<>> kv;
  // rope_freqs.weight, rope_factors_long.weight and rope_factors_short.weight, when present.
  std::map<std::string, std::vector<float>, std::less<>> rope_tensors;
  std::uint64_t tensor_elements = 0;          // the parameter count: every tensor's element count, summed
  std::optional<std::uint64_t> tensor_bytes;  // ggml_nbytes summed; none when a tensor type has no known size
  std::map<std::string, std::uint64_t, std::less<>> rope_tensor_info_offsets;  // where each one's info entry starts
  std::vector<GgufTensorInfo> tensors;  // the tensor-info table in file order (at most kGgufMaxTensorCount entries)

  // Where a key-value pair or a RoPE tensor's info entry starts in the file, by its name.
  std::optional<std::uint64_t> offset_of(std::string_view name) const;

  const GgufValue* find(std::string_view key) const;
};

inline constexpr std::string_view kGgufMagic = "GGUF";
inline constexpr std::uint32_t kGgufDefaultAlignment = 32;
inline constexpr std::uint32_t kGgufMaxDims = 4;           // GGML_MAX_DIMS
inline constexpr std::uint64_t kGgufMaxNameBytes = 65535;  // keys and tensor names
inline constexpr std::uint64_t kGgufMaxKeptStringBytes = 1u << 20;
inline constexpr std::uint64_t kGgufMaxKeptArrayElements = 4096;
inline constexpr std::uint64_t kGgufMaxKvCount = 1u << 20;             // real files have a few dozen
inline constexpr std::uint64_t kGgufMaxTensorCount = 1u << 20;         // real files have at most ~10^5
inline constexpr std::uint64_t kGgufMaxRopeTensorElements = 1u << 16;  // real ones have rotary_dim / 2
inline constexpr std::string_view kRopeFreqsTensor = "rope_freqs.weight";
inline constexpr std::string_view kRopeFactorsLongTensor = "rope_factors_long.weight";
inline constexpr std::string_view kRopeFactorsShortTensor = "rope_factors_short.weight";

// ggml tensor types: name, values per block and bytes per block (ggml.c type_traits).
struct GgmlTypeTraits {
  std::string_view name;
  std::uint32_t block_values = 1;
  std::uint32_t block_bytes = 0;
};
const GgmlTypeTraits* ggml_type_traits(std::uint32_t type);  // nullptr for ids ggml does not define
std::string ggml_type_name(std::uint32_t type);              // "Q4_K", or "type N"
std::optional<std::uint64_t> ggml_tensor_bytes(std::uint32_t type, std::uint64_t elements);
// general.file_type (llama_ftype) as gguf-parser-go names it: "Q4_K_M", "F16", … or "ftype N".
std::string llama_ftype_name(std::uint32_t file_type);

// What gguf-parser-go's METADATA, ARCHITECTURE and TOKENIZER tables show, all from the header.
struct GgufMetadata {
  std::optional<std::string> architecture;  // general.architecture
  std::optional<std::string> name;          // general.name
  std::optional<std::int64_t> file_type;    // general.file_type
  std::string quantization;                 // llama_ftype_name(file_type), or "" without the key
  std::uint64_t tensor_count = 0;
  std::uint64_t parameters = 0;                // Σ tensor element counts
  std::uint64_t size_bytes = 0;                // the tensor data section: file size − data offset
  std::optional<std::uint64_t> tensor_bytes;   // Σ ggml_nbytes, what the weights take in memory
  double bits_per_weight = 0.0;                // size_bytes · 8 / parameters, as gguf-parser-go computes it
  std::optional<std::int64_t> context_length;  // {arch}.context_length
  std::optional<std::int64_t> embedding_length;
  std::optional<std::int64_t> block_count;
  std::optional<std::int64_t> head_count;  // the largest entry when stored per layer
  std::optional<std::int64_t> head_count_kv;
  std::optional<std::string> tokenizer_model;    // tokenizer.ggml.model
  std::optional<std::uint64_t> vocabulary_size;  // {arch}.vocab_size, else the length of tokenizer.ggml.tokens
  std::string vocabulary_from;                   // the key it was read from
  std::optional<std::int64_t> split_count;       // split.count: this file is one part of several
};
GgufMetadata gguf_metadata(const GgufFile& file);

// True when the file starts with the GGUF magic (false when it cannot be read).
bool looks_like_gguf(const std::string& path);
bool looks_like_gguf_bytes(std::string_view bytes);

// Reads the header, the key-values, the tensor-info table and the RoPE factor tensors.
// Throws InputError (input.hpp) naming what is wrong and its byte offset, and the file as `shown` (default: `path`).
GgufFile read_gguf(const std::string& path, const std::optional<std::string>& shown = std::nullopt);
GgufFile read_gguf_bytes(std::string display_path, std::string_view bytes);
// The same from a file held in parts (the header a browser read): BytesNotRead names the bytes it lacks.
struct FileBytes;
GgufFile read_gguf_bytes(const FileBytes& file);

// Fills `out` with up to `count` of a stream's next bytes and returns how many; 0 at its end.
using ReadSome = std::function<std::size_t(char* out, std::size_t count)>;
// The same for a file that arrives as a stream of `size` bytes (a git blob through a pipe), of which `first_bytes`
// were taken already: read once, forward only, through a window of 64 KiB, with the bytes between the header and a
// RoPE factor tensor's data read and dropped. Memory stays bounded whatever the size; a stream that ends early
// throws InputError.
GgufFile read_gguf_stream(std::string display_path, std::uint64_t size, std::string first_bytes,
                          const ReadSome& read_some);

}  // namespace ropelens
