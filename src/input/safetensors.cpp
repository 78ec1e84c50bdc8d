// safetensors headers, bounded: the length is capped and checked against the file before anything is allocated,
// the JSON is depth-bounded, and every byte range is checked against shape × dtype and the file.
#include "ropelens/input/safetensors.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <set>
#include <tuple>
#include <utility>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "bounded_dom.hpp"
#include "ropelens/input/input.hpp"

namespace ropelens {
namespace {

using nlohmann::json;

struct DtypeBits {
  std::string_view name;
  int bits;
};
// The dtypes of safetensors' Dtype enum (safetensors/src/tensor.rs), with their widths.
constexpr std::array<DtypeBits, 20> kDtypes{{{"BOOL", 8}, {"F4", 4},      {"F6_E2M3", 6}, {"F6_E3M2", 6}, {"U8", 8},
                                             {"I8", 8},   {"F8_E5M2", 8}, {"F8_E4M3", 8}, {"F8_E8M0", 8}, {"I16", 16},
                                             {"U16", 16}, {"F16", 16},    {"BF16", 16},   {"I32", 32},    {"U32", 32},
                                             {"F32", 32}, {"F64", 64},    {"I64", 64},    {"U64", 64},    {"C64", 64}}};

[[noreturn]] void fail(const std::string& path, const std::string& why) { throw InputError(path, why); }

std::uint64_t little_endian_u64(const unsigned char* bytes) {
  std::uint64_t value = 0;
  for (int i = 7; i >= 0; --i) value = (value << 8) | bytes[i];
  return value;
}

// a × b, or none when it overflows 64 bits.
std::optional<std::uint64_t> multiply(std::uint64_t a, std::uint64_t b) {
  if (a != 0 && b > UINT64_MAX / a) return std::nullopt;
  return a * b;
}

std::uint64_t whole_number(const std::string& path, const json& value, const std::string& what) {
  if (value.is_number_unsigned()) return value.get<std::uint64_t>();
  if (value.is_number_integer() && value.get<std::int64_t>() >= 0)
    return static_cast<std::uint64_t>(value.get<std::int64_t>());
  fail(path, fmt::format("{} is not a whole number ≥ 0", what));
}

std::vector<std::uint64_t> read_shape(const std::string& path, const std::string& name, const json& entry) {
  const auto shape = entry.find("shape");
  if (shape == entry.end() || !shape->is_array())
    fail(path, fmt::format("tensor {}: shape is missing or not an array", name));
  std::vector<std::uint64_t> dims;
  for (const auto& dim : *shape) dims.push_back(whole_number(path, dim, fmt::format("tensor {}: a shape entry", name)));
  return dims;
}

// Bytes of shape × dtype, or an error when it overflows or is not a whole number of bytes.
std::uint64_t expected_bytes(const std::string& path, const SafetensorsTensor& t, int bits) {
  std::optional<std::uint64_t> total = static_cast<std::uint64_t>(bits);
  for (std::uint64_t dim : t.shape)
    if (total) total = multiply(*total, dim);
  if (!total) fail(path, fmt::format("tensor {}: shape × dtype overflows 64 bits", t.name));
  if (*total % 8 != 0) fail(path, fmt::format("tensor {}: {} bits of {} are not whole bytes", t.name, *total, t.dtype));
  return *total / 8;
}

SafetensorsTensor read_tensor(const std::string& path, const std::string& name, const json& entry) {
  if (!entry.is_object()) fail(path, fmt::format("tensor {} is not an object", name));
  SafetensorsTensor t;
  t.name = name;
  const auto dtype = entry.find("dtype");
  if (dtype == entry.end() || !dtype->is_string()) fail(path, fmt::format("tensor {}: dtype is missing", name));
  t.dtype = dtype->get<std::string>();
  const auto bits = safetensors_dtype_bits(t.dtype);
  if (!bits) fail(path, fmt::format("tensor {}: unknown dtype \"{}\"", name, t.dtype));
  t.shape = read_shape(path, name, entry);
  const auto offsets = entry.find("data_offsets");
  if (offsets == entry.end() || !offsets->is_array() || offsets->size() != 2)
    fail(path, fmt::format("tensor {}: data_offsets is not [begin, end]", name));
  t.begin = whole_number(path, (*offsets)[0], fmt::format("tensor {}: data_offsets[0]", name));
  t.end = whole_number(path, (*offsets)[1], fmt::format("tensor {}: data_offsets[1]", name));
  if (t.end < t.begin) fail(path, fmt::format("tensor {}: data_offsets end {} before begin {}", name, t.end, t.begin));
  const std::uint64_t bytes = expected_bytes(path, t, *bits);
  if (t.end - t.begin != bytes)
    fail(path, fmt::format("tensor {}: data_offsets [{}, {}] hold {} bytes, but {} {} needs {}", name, t.begin, t.end,
                           t.end - t.begin, t.dtype, json(t.shape).dump(), bytes));
  return t;
}

// The ranges, sorted, must tile [0, data size): each starts where the one before ends, or repeats it exactly
// (storage shared by two names, e.g. tied embeddings).
void check_ranges(const std::string& path, const std::vector<SafetensorsTensor>& tensors, std::uint64_t data_size) {
  std::uint64_t covered = 0;
  const SafetensorsTensor* previous = nullptr;
  for (const auto& t : tensors) {
    const bool shares = previous && t.begin == previous->begin && t.end == previous->end;
    if (!shares && t.begin != covered) {
      if (t.begin < covered)
        fail(path, fmt::format("tensor {} (bytes {}–{}) overlaps tensor {} (bytes {}–{})", t.name, t.begin, t.end,
                               previous->name, previous->begin, previous->end));
      fail(path, fmt::format("tensor {} starts at byte {}, leaving bytes {}–{} of the data unused", t.name, t.begin,
                             covered, t.begin));
    }
    if (t.end > data_size)
      fail(path,
           fmt::format("tensor {} ends at byte {} of the data, past its end ({} bytes)", t.name, t.end, data_size));
    covered = std::max(covered, t.end);
    previous = &t;
  }
  if (covered != data_size)
    fail(path, fmt::format("the tensors cover {} bytes of data, and the file holds {}", covered, data_size));
}

json parse_header_json(const std::string& path, std::string_view text) {
  auto parsed = input_detail::parse_bounded(std::string(text), kMaxSafetensorsHeaderDepth);
  if (parsed.syntax_error)
    fail(path, fmt::format("the header is not JSON (byte {}: {})", parsed.error_byte, parsed.error_message));
  if (!parsed.cut_pointers.empty())
    fail(path, fmt::format("the header nests deeper than {} levels at {}", kMaxSafetensorsHeaderDepth,
                           parsed.cut_pointers.front()));
  if (!parsed.root.is_object()) fail(path, "the header is not a JSON object");
  return std::move(parsed.root);
}

std::ifstream open_binary(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(path, "cannot open the file");
  return in;
}

double half_to_double(std::uint16_t bits) {
  const int exponent = (bits >> 10) & 0x1F;
  const int mantissa = bits & 0x3FF;
  const double sign = (bits & 0x8000) ? -1.0 : 1.0;
  if (exponent == 0) return sign * std::ldexp(mantissa, -24);
  if (exponent == 31) return mantissa ? std::nan("") : sign * std::numeric_limits<double>::infinity();
  return sign * std::ldexp(mantissa + 1024, exponent - 25);
}

double element_value(std::string_view dtype, const unsigned char* p) {
  if (dtype == "F64") return std::bit_cast<double>(little_endian_u64(p));
  std::uint32_t word = 0;
  for (int i = (dtype == "F32" ? 3 : 1); i >= 0; --i) word = (word << 8) | p[i];
  if (dtype == "F32") return static_cast<double>(std::bit_cast<float>(word));
  if (dtype == "BF16") return static_cast<double>(std::bit_cast<float>(word << 16));
  return half_to_double(static_cast<std::uint16_t>(word));
}

// A shard name from an index: a file in the same folder, never a path that leaves it.
bool plain_file_name(const std::string& name) {
  return !name.empty() && name != "." && name != ".." && name.find('/') == std::string::npos &&
         name.find('\\') == std::string::npos;
}

std::vector<std::string> shards_of_index(const std::string& index_path) {
  const Document index = read_config(index_path);
  const auto map = index.root.find("weight_map");
  if (map == index.root.end() || !map->is_object()) fail(index_path, "no weight_map object");
  std::set<std::string> shards;
  for (const auto& [tensor, shard] : map->items()) {
    if (!shard.is_string() || !plain_file_name(shard.get<std::string>()))
      fail(index_path, fmt::format("weight_map[\"{}\"] is not a file name in the index's folder", tensor));
    shards.insert(shard.get<std::string>());
  }
  return {shards.begin(), shards.end()};
}

void add_file(CheckpointWeights& weights, const std::string& path, const SafetensorsHeader& header) {
  weights.files.push_back(path);
  const SafetensorsTensor* previous = nullptr;
  for (const auto& t : header.tensors) {
    const bool shares = previous && t.begin == previous->begin && t.end == previous->end;
    if (!shares) {
      weights.bytes += t.end - t.begin;
      weights.parameters += t.elements();
    }
    weights.tensors.emplace_back(path, t);
    previous = &t;
  }
}

}  // namespace

std::optional<int> safetensors_dtype_bits(std::string_view dtype) {
  for (const auto& known : kDtypes)
    if (known.name == dtype) return known.bits;
  return std::nullopt;
}

std::uint64_t SafetensorsTensor::elements() const {
  std::uint64_t count = 1;
  for (std::uint64_t dim : shape) count *= dim;  // bounded by the checked byte range
  return count;
}

SafetensorsHeader parse_safetensors_header(const std::string& path, std::string_view header_json,
                                           std::uint64_t file_size) {
  const json root = parse_header_json(path, header_json);
  SafetensorsHeader header;
  header.path = path;
  header.data_start = 8 + header_json.size();
  for (const auto& [name, entry] : root.items()) {
    if (name == "__metadata__") {
      if (!entry.is_object()) fail(path, "__metadata__ is not an object");
      continue;
    }
    header.tensors.push_back(read_tensor(path, name, entry));
  }
  std::sort(header.tensors.begin(), header.tensors.end(), [](const auto& a, const auto& b) {
    return std::tie(a.begin, a.end, a.name) < std::tie(b.begin, b.end, b.name);
  });
  check_ranges(path, header.tensors, file_size - header.data_start);
  return header;
}

SafetensorsHeader read_safetensors_header(const std::string& path) {
  std::error_code ec;
  const std::uint64_t file_size = std::filesystem::file_size(path, ec);
  if (ec) fail(path, fmt::format("cannot read the file size ({})", ec.message()));
  if (file_size < 8) fail(path, fmt::format("{} bytes, too short for a safetensors header length", file_size));
  std::ifstream in = open_binary(path);
  std::array<unsigned char, 8> length_bytes{};
  in.read(reinterpret_cast<char*>(length_bytes.data()), 8);
  const std::uint64_t length = little_endian_u64(length_bytes.data());
  if (length > kMaxSafetensorsHeaderBytes)
    fail(path, fmt::format("header length {} exceeds the {}-byte limit", length, kMaxSafetensorsHeaderBytes));
  if (length > file_size - 8)
    fail(path, fmt::format("header length {} runs past the end of the file ({} bytes)", length, file_size));
  std::string text(length, '\0');
  if (!in.read(text.data(), static_cast<std::streamsize>(length))) fail(path, "cannot read the header");
  return parse_safetensors_header(path, text, file_size);
}

std::vector<double> read_safetensors_values(const SafetensorsHeader& header, const SafetensorsTensor& tensor) {
  const std::string_view dtype = tensor.dtype;
  if (dtype != "F64" && dtype != "F32" && dtype != "F16" && dtype != "BF16")
    fail(header.path, fmt::format("tensor {}: {} values are not read, only float ones", tensor.name, tensor.dtype));
  if (tensor.elements() > kMaxTensorValuesRead)
    fail(header.path, fmt::format("tensor {}: {} values, more than the {} read", tensor.name, tensor.elements(),
                                  kMaxTensorValuesRead));
  std::string bytes(tensor.end - tensor.begin, '\0');
  std::ifstream in = open_binary(header.path);
  in.seekg(static_cast<std::streamoff>(header.data_start + tensor.begin));
  if (!in.read(bytes.data(), static_cast<std::streamsize>(bytes.size())))
    fail(header.path, fmt::format("cannot read tensor {}", tensor.name));
  const std::size_t width = bytes.size() / std::max<std::uint64_t>(tensor.elements(), 1);
  std::vector<double> values;
  for (std::size_t at = 0; at + width <= bytes.size() && width > 0; at += width)
    values.push_back(element_value(dtype, reinterpret_cast<const unsigned char*>(bytes.data() + at)));
  return values;
}

std::optional<CheckpointWeights> read_checkpoint_weights(const std::string& folder, std::string* missing_shard) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path index = fs::path(folder) / "model.safetensors.index.json";
  const fs::path single = fs::path(folder) / "model.safetensors";
  std::vector<std::string> files;
  if (fs::is_regular_file(index, ec)) {
    const auto shards = shards_of_index(index.string());
    if (shards.empty()) return std::nullopt;  // an index without its weight map: its total_size is all there is
    for (const auto& shard : shards) {
      const fs::path path = fs::path(folder) / shard;
      if (!fs::is_regular_file(path, ec)) {
        if (!missing_shard) fail(index.string(), fmt::format("names the shard {}, which is not in its folder", shard));
        *missing_shard = path.string();
        return std::nullopt;
      }
      files.push_back(path.string());
    }
  } else if (fs::is_regular_file(single, ec)) {
    files.push_back(single.string());
  } else {
    return std::nullopt;
  }
  CheckpointWeights weights;
  for (const auto& file : files) add_file(weights, file, read_safetensors_header(file));
  std::stable_sort(weights.tensors.begin(), weights.tensors.end(),
                   [](const auto& a, const auto& b) { return a.second.name < b.second.name; });
  const auto same_name = [](const auto& a, const auto& b) { return a.second.name == b.second.name; };
  weights.tensors.erase(std::unique(weights.tensors.begin(), weights.tensors.end(), same_name), weights.tensors.end());
  return weights;
}

}  // namespace ropelens
