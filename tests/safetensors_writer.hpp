// A small safetensors writer for tests: the header as safetensors writes it, and a data region left sparse except
// for the values given, so that a checkpoint of real shapes costs a few KiB of disk.
#pragma once

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ropelens/input/safetensors.hpp"

namespace ropelens::test {

struct SafetensorsSpec {
  std::string name;
  std::string dtype = "BF16";
  std::vector<std::uint64_t> shape;
  std::vector<float> f32_values;  // written for an F32 tensor (e.g. an inv_freq buffer); else the data stays zero
  std::string shares;             // the name of an earlier tensor whose bytes this one shares (tied embeddings)
};

// The 8-byte little-endian length and the header JSON.
inline std::string safetensors_prefix(const std::string& header_json) {
  std::string out;
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>((header_json.size() >> (8 * i)) & 0xFF));
  return out + header_json;
}

// Writes `path`: tensors laid out in order, each sharing one's range when `shares` names it.
inline void write_safetensors(const std::string& path, const std::vector<SafetensorsSpec>& tensors) {
  nlohmann::json header = nlohmann::json::object();
  header["__metadata__"] = {{"format", "pt"}};
  std::uint64_t end = 0;
  std::vector<std::pair<std::uint64_t, const SafetensorsSpec*>> written;
  for (const auto& t : tensors) {
    if (!t.shares.empty()) {
      header[t.name] = header[t.shares];
      continue;
    }
    std::uint64_t bits = static_cast<std::uint64_t>(*safetensors_dtype_bits(t.dtype));
    for (auto dim : t.shape) bits *= dim;
    header[t.name] = {{"dtype", t.dtype}, {"shape", t.shape}, {"data_offsets", {end, end + bits / 8}}};
    written.emplace_back(end, &t);
    end += bits / 8;
  }
  const std::string prefix = safetensors_prefix(header.dump());
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << prefix;
  }
  std::filesystem::resize_file(path, prefix.size() + end);  // sparse: no data blocks written
  std::fstream out(path, std::ios::binary | std::ios::in | std::ios::out);
  for (const auto& [offset, t] : written) {
    if (t->f32_values.empty()) continue;
    out.seekp(static_cast<std::streamoff>(prefix.size() + offset));
    for (float value : t->f32_values) {
      char bytes[4];
      std::memcpy(bytes, &value, 4);  // little-endian hosts, as safetensors files are
      out.write(bytes, 4);
    }
  }
}

// Writes a file from a raw header and `data_bytes` zero bytes, for hostile headers.
inline void write_raw_safetensors(const std::string& path, const std::string& header_json, std::uint64_t data_bytes) {
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << safetensors_prefix(header_json);
  }
  std::filesystem::resize_file(path, 8 + header_json.size() + data_bytes);
}

// Tensors described as JSON, {"name": {"dtype": "BF16", "shape": [..], "values": [..], "shares": "other"}}, in the
// order listed (a case folder's checkpoint.json).
inline std::vector<SafetensorsSpec> tensor_specs(const nlohmann::ordered_json& described) {
  std::vector<SafetensorsSpec> specs;
  for (const auto& [name, entry] : described.items()) {
    SafetensorsSpec spec;
    spec.name = name;
    spec.dtype = entry.value("dtype", "BF16");
    spec.shape = entry.value("shape", std::vector<std::uint64_t>{});
    spec.f32_values = entry.value("values", std::vector<float>{});
    spec.shares = entry.value("shares", "");
    specs.push_back(std::move(spec));
  }
  return specs;
}

}  // namespace ropelens::test
