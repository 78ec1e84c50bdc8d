// A small GGUF writer for tests and fuzz seeds: builds valid files, and hostile ones through raw entries and
// overrides. Little-endian, as ggml writes them.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ropelens::test {

inline void put_u8(std::string& out, std::uint8_t value) { out.push_back(static_cast<char>(value)); }

inline void put_le(std::string& out, std::uint64_t value, int width) {
  for (int i = 0; i < width; ++i) out.push_back(static_cast<char>((value >> (8 * i)) & 0xFF));
}
inline void put_u16(std::string& out, std::uint16_t value) { put_le(out, value, 2); }
inline void put_u32(std::string& out, std::uint32_t value) { put_le(out, value, 4); }
inline void put_u64(std::string& out, std::uint64_t value) { put_le(out, value, 8); }
inline void put_f32(std::string& out, float value) {
  std::uint32_t bits = 0;
  std::memcpy(&bits, &value, sizeof bits);
  put_u32(out, bits);
}
inline void put_f64(std::string& out, double value) {
  std::uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof bits);
  put_u64(out, bits);
}
inline void put_string(std::string& out, std::string_view text) {
  put_u64(out, text.size());
  out.append(text);
}

// GGUF value type ids.
enum : std::uint32_t {
  kU8 = 0,
  kI8 = 1,
  kU16 = 2,
  kI16 = 3,
  kU32 = 4,
  kI32 = 5,
  kF32 = 6,
  kBool = 7,
  kString = 8,
  kArray = 9,
  kU64 = 10,
  kI64 = 11,
  kF64 = 12,
};

// ggml tensor type ids used by the tests.
enum : std::uint32_t { kGgmlF32 = 0, kGgmlF16 = 1, kGgmlQ4_0 = 2, kGgmlQ4_K = 12, kGgmlQ6_K = 14 };

struct TensorSpec {
  std::string name;
  std::vector<std::uint64_t> dims;
  std::uint32_t ggml_type = kGgmlF32;
  std::string data;                     // written into the data section
  std::optional<std::uint64_t> offset;  // overrides the computed offset (data is then not written)
};

class GgufWriter {
 public:
  GgufWriter& version(std::uint32_t v) {
    version_ = v;
    return *this;
  }
  GgufWriter& kv_count(std::uint64_t n) {
    kv_count_ = n;
    return *this;
  }
  GgufWriter& tensor_count(std::uint64_t n) {
    tensor_count_ = n;
    return *this;
  }
  // The alignment used to lay out the file; write the key separately (alignment_key) to test mismatches.
  GgufWriter& layout_alignment(std::uint64_t a) {
    alignment_ = a;
    return *this;
  }
  GgufWriter& alignment(std::uint32_t a) {
    layout_alignment(a);
    return u32("general.alignment", a);
  }

  GgufWriter& u8(std::string_view key, std::uint8_t v) {
    return scalar(key, kU8, [&](std::string& o) { put_u8(o, v); });
  }
  GgufWriter& i8(std::string_view key, std::int8_t v) {
    return scalar(key, kI8, [&](std::string& o) { put_u8(o, static_cast<std::uint8_t>(v)); });
  }
  GgufWriter& u16(std::string_view key, std::uint16_t v) {
    return scalar(key, kU16, [&](std::string& o) { put_u16(o, v); });
  }
  GgufWriter& i16(std::string_view key, std::int16_t v) {
    return scalar(key, kI16, [&](std::string& o) { put_u16(o, static_cast<std::uint16_t>(v)); });
  }
  GgufWriter& u32(std::string_view key, std::uint32_t v) {
    return scalar(key, kU32, [&](std::string& o) { put_u32(o, v); });
  }
  GgufWriter& i32(std::string_view key, std::int32_t v) {
    return scalar(key, kI32, [&](std::string& o) { put_u32(o, static_cast<std::uint32_t>(v)); });
  }
  GgufWriter& u64(std::string_view key, std::uint64_t v) {
    return scalar(key, kU64, [&](std::string& o) { put_u64(o, v); });
  }
  GgufWriter& i64(std::string_view key, std::int64_t v) {
    return scalar(key, kI64, [&](std::string& o) { put_u64(o, static_cast<std::uint64_t>(v)); });
  }
  GgufWriter& f32(std::string_view key, float v) {
    return scalar(key, kF32, [&](std::string& o) { put_f32(o, v); });
  }
  GgufWriter& f64(std::string_view key, double v) {
    return scalar(key, kF64, [&](std::string& o) { put_f64(o, v); });
  }
  GgufWriter& boolean(std::string_view key, bool v) {
    return scalar(key, kBool, [&](std::string& o) { put_u8(o, v ? 1 : 0); });
  }
  GgufWriter& str(std::string_view key, std::string_view v) {
    return scalar(key, kString, [&](std::string& o) { put_string(o, v); });
  }

  GgufWriter& i32_array(std::string_view key, const std::vector<std::int32_t>& values) {
    return scalar(key, kArray, [&](std::string& o) {
      put_u32(o, kI32);
      put_u64(o, values.size());
      for (auto v : values) put_u32(o, static_cast<std::uint32_t>(v));
    });
  }
  GgufWriter& f32_array(std::string_view key, const std::vector<float>& values) {
    return scalar(key, kArray, [&](std::string& o) {
      put_u32(o, kF32);
      put_u64(o, values.size());
      for (auto v : values) put_f32(o, v);
    });
  }
  GgufWriter& bool_array(std::string_view key, const std::vector<bool>& values) {
    return scalar(key, kArray, [&](std::string& o) {
      put_u32(o, kBool);
      put_u64(o, values.size());
      for (bool v : values) put_u8(o, v ? 1 : 0);
    });
  }
  GgufWriter& string_array(std::string_view key, const std::vector<std::string>& values) {
    return scalar(key, kArray, [&](std::string& o) {
      put_u32(o, kString);
      put_u64(o, values.size());
      for (const auto& v : values) put_string(o, v);
    });
  }

  // An already-encoded key-value (key, type and value), for hostile files.
  GgufWriter& raw_kv(std::string encoded) {
    kvs_.push_back(std::move(encoded));
    return *this;
  }

  GgufWriter& f32_tensor(std::string name, const std::vector<float>& values) {
    TensorSpec spec{std::move(name), {values.size()}, kGgmlF32, {}, std::nullopt};
    for (float v : values) put_f32(spec.data, v);
    return tensor(std::move(spec));
  }
  GgufWriter& tensor(TensorSpec spec) {
    tensors_.push_back(std::move(spec));
    return *this;
  }

  std::string bytes() const {
    std::string out = "GGUF";
    put_u32(out, version_);
    put_u64(out, tensor_count_.value_or(tensors_.size()));
    put_u64(out, kv_count_.value_or(kvs_.size()));
    for (const auto& kv : kvs_) out += kv;
    std::string data;
    for (const auto& spec : tensors_) {
      put_string(out, spec.name);
      put_u32(out, static_cast<std::uint32_t>(spec.dims.size()));
      for (auto d : spec.dims) put_u64(out, d);
      put_u32(out, spec.ggml_type);
      if (spec.offset) {
        put_u64(out, *spec.offset);
        continue;
      }
      put_u64(out, data.size());
      data += spec.data;
      pad(data);
    }
    if (!tensors_.empty()) pad(out);
    return out + data;
  }

  void write(const std::string& path) const {
    std::ofstream file(path, std::ios::binary | std::ios::trunc);
    const std::string content = bytes();
    file.write(content.data(), static_cast<std::streamsize>(content.size()));
  }

 private:
  template <class Encode> GgufWriter& scalar(std::string_view key, std::uint32_t type, Encode encode) {
    std::string kv;
    put_string(kv, key);
    put_u32(kv, type);
    encode(kv);
    kvs_.push_back(std::move(kv));
    return *this;
  }
  void pad(std::string& out) const {
    while (alignment_ > 0 && out.size() % alignment_ != 0) out.push_back('\0');
  }

  std::uint32_t version_ = 3;
  std::uint64_t alignment_ = 32;
  std::optional<std::uint64_t> kv_count_;
  std::optional<std::uint64_t> tensor_count_;
  std::vector<std::string> kvs_;
  std::vector<TensorSpec> tensors_;
};

// llama.cpp's converter (conversion/llama.py LlamaModel.generate_extra_tensors): per-pair divisors for llama3
// scaling, in float32 as torch computes them there (freqs, wavelengths and the band blend are float32 tensors).
inline std::vector<float> llama3_rope_freqs(double theta, int head_dim, double factor, double low_freq_factor,
                                            double high_freq_factor, double original_context) {
  const auto low_freq_wavelen = static_cast<float>(original_context / low_freq_factor);
  const auto high_freq_wavelen = static_cast<float>(original_context / high_freq_factor);
  const auto two_pi = static_cast<float>(2.0 * 3.14159265358979323846);
  std::vector<float> divisors;
  for (int i = 0; i < head_dim; i += 2) {
    const float exponent = static_cast<float>(i) / static_cast<float>(head_dim);
    const float freq = 1.0f / std::pow(static_cast<float>(theta), exponent);
    const float wavelen = two_pi / freq;
    if (wavelen < high_freq_wavelen) {
      divisors.push_back(1.0f);
    } else if (wavelen > low_freq_wavelen) {
      divisors.push_back(static_cast<float>(factor));
    } else {
      const float smooth = (static_cast<float>(original_context) / wavelen - static_cast<float>(low_freq_factor)) /
                           static_cast<float>(high_freq_factor - low_freq_factor);
      divisors.push_back(1.0f / ((1.0f - smooth) / static_cast<float>(factor) + smooth));
    }
  }
  return divisors;
}

// The keys every llama-style file carries.
inline GgufWriter llama_like(const std::string& arch, std::uint32_t context, std::uint32_t layers,
                             std::uint32_t embedding, std::uint32_t heads) {
  GgufWriter w;
  w.str("general.architecture", arch)
      .str("general.name", "fixture " + arch)
      .u32(arch + ".context_length", context)
      .u32(arch + ".embedding_length", embedding)
      .u32(arch + ".block_count", layers)
      .u32(arch + ".attention.head_count", heads)
      .f32(arch + ".attention.layer_norm_rms_epsilon", 1e-5f);
  return w;
}

// What convert_hf_to_gguf.py writes for testdata/configs/qwen/qwen2.5-coder-32b-instruct-historical-yarn.json.
inline GgufWriter qwen_yarn_fixture() {
  GgufWriter w = llama_like("qwen2", 32768, 64, 5120, 40);
  w.u32("qwen2.attention.head_count_kv", 8)
      .f32("qwen2.rope.freq_base", 1000000.0f)
      .str("qwen2.rope.scaling.type", "yarn")
      .f32("qwen2.rope.scaling.factor", 4.0f)
      .u32("qwen2.rope.scaling.original_context_length", 32768);
  return w;
}

// What convert_hf_to_gguf.py writes for testdata/configs/qwen/qwen3-8b.json with rope_scaling yarn factor 4 on 32768
// (qwen3_yarn4_config); `scaling_keys` false drops the rope.scaling.* keys, `freq_base` overrides the base.
inline GgufWriter qwen3_yarn4_fixture(bool scaling_keys = true, float freq_base = 1000000.0f,
                                      std::uint32_t context = 40960) {
  GgufWriter w = llama_like("qwen3", context, 36, 4096, 32);
  w.u32("qwen3.attention.head_count_kv", 8)
      .u32("qwen3.attention.key_length", 128)
      .u32("qwen3.attention.value_length", 128)
      .f32("qwen3.rope.freq_base", freq_base);
  if (scaling_keys)
    w.str("qwen3.rope.scaling.type", "yarn")
        .f32("qwen3.rope.scaling.factor", 4.0f)
        .u32("qwen3.rope.scaling.original_context_length", 32768);
  return w;
}

// What convert_hf_to_gguf.py writes for testdata/configs/qwen/qwen3-8b.json (Qwen3-8B's shape and vocabulary, so
// the known base matches it), with `context` and `freq_base` as given.
inline GgufWriter qwen3_8b_fixture(std::uint32_t context = 40960, float freq_base = 1000000.0f) {
  GgufWriter w = llama_like("qwen3", context, 36, 4096, 32);
  w.u32("qwen3.attention.head_count_kv", 8)
      .u32("qwen3.attention.key_length", 128)
      .u32("qwen3.attention.value_length", 128)
      .u32("qwen3.vocab_size", 151936)
      .f32("qwen3.rope.freq_base", freq_base);
  return w;
}

// What convert_hf_to_gguf.py writes for testdata/configs/llama/llama-3.1-8b-instruct-bnb8bit-finetune.json: base
// 500000 and the llama3 divisors in rope_freqs.weight; `freq_base` overrides the base alone, and `rope_freqs` false
// drops the tensor.
inline GgufWriter llama31_8b_fixture(float freq_base = 500000.0f, bool rope_freqs = true) {
  GgufWriter w = llama_like("llama", 131072, 32, 4096, 32);
  w.u32("llama.attention.head_count_kv", 8)
      .u32("llama.rope.dimension_count", 128)
      .u32("llama.vocab_size", 128256)
      .f32("llama.rope.freq_base", freq_base);
  if (rope_freqs) w.f32_tensor("rope_freqs.weight", llama3_rope_freqs(500000.0, 128, 8.0, 1.0, 4.0, 8192.0));
  return w;
}

}  // namespace ropelens::test
