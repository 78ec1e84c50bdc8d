// safetensors checkpoints, header only: an 8-byte little-endian length, then that many bytes of JSON naming each
// tensor's dtype, shape and byte range. Reading never touches the weights, so a 10 GB file costs milliseconds.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ropelens {

constexpr std::uint64_t kMaxSafetensorsHeaderBytes = 100000000;  // 100 MB, the limit safetensors itself sets
constexpr int kMaxSafetensorsHeaderDepth = 4;                    // {name: {shape: [n]}} needs 3
constexpr std::uint64_t kMaxTensorValuesRead = 1u << 16;         // elements of one small tensor read (inv_freq)

// Bits one element of a safetensors dtype takes (BF16: 16, F8_E4M3: 8, F4: 4), none for an unknown dtype.
std::optional<int> safetensors_dtype_bits(std::string_view dtype);

struct SafetensorsTensor {
  std::string name;
  std::string dtype;
  std::vector<std::uint64_t> shape;
  std::uint64_t begin = 0;  // data_offsets, relative to the end of the header
  std::uint64_t end = 0;
  std::uint64_t elements() const;
};

struct SafetensorsHeader {
  std::string path;
  std::uint64_t data_start = 0;            // 8 + the header length
  std::vector<SafetensorsTensor> tensors;  // sorted by begin; tensors sharing storage have equal ranges
};

// Reads and checks the header of `path`: every dtype known, every range within the data, equal to
// shape × dtype and overlapping no other (tensors that share storage have the same range), the ranges covering
// the data without gaps, as safetensors requires. Throws InputError (one line, naming the file) otherwise.
SafetensorsHeader read_safetensors_header(const std::string& path);
// The same for bytes in memory (tests, the fuzzer); `file_size` is the whole file's size.
SafetensorsHeader parse_safetensors_header(const std::string& path, std::string_view header_json,
                                           std::uint64_t file_size);

// The values of one small F64, F32, F16 or BF16 tensor (at most kMaxTensorValuesRead), as float64.
std::vector<double> read_safetensors_values(const SafetensorsHeader& header, const SafetensorsTensor& tensor);

// The weights of a checkpoint: one model.safetensors, or every shard a model.safetensors.index.json names.
struct CheckpointFile {
  std::string path;
  SafetensorsHeader header;
};
struct CheckpointWeights {
  std::vector<std::string> files;
  std::vector<std::pair<std::string, SafetensorsTensor>> tensors;  // (file, tensor), sorted by name, each name once
  std::uint64_t bytes = 0;       // every stored byte, storage shared by several names once
  std::uint64_t parameters = 0;  // their elements, counted the same way
};
// None when `folder` has neither model.safetensors.index.json nor model.safetensors. Throws InputError for a
// header that cannot be read, or an index that names a shard missing from the folder (`missing_shard` set
// instead when the caller prefers to fall back on the index's total_size).
std::optional<CheckpointWeights> read_checkpoint_weights(const std::string& folder,
                                                         std::string* missing_shard = nullptr);

}  // namespace ropelens
