// GGUF header reader: every count, length and offset is checked against the bytes that remain before use.
// Layout (ggml docs/gguf.md): magic, version u32, tensor_count u64, kv_count u64, the key-values, the tensor
// infos, zero padding to general.alignment, then the tensor data. Only the RoPE factor tensors are read.
#include "ropelens/input/gguf.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <unordered_set>

#include <fmt/format.h>

#include "ropelens/input/file_bytes.hpp"
#include "ropelens/input/input.hpp"

namespace ropelens {

std::string_view to_string(GgufType type) {
  switch (type) {
    case GgufType::uint8: return "u8";
    case GgufType::int8: return "i8";
    case GgufType::uint16: return "u16";
    case GgufType::int16: return "i16";
    case GgufType::uint32: return "u32";
    case GgufType::int32: return "i32";
    case GgufType::float32: return "f32";
    case GgufType::boolean: return "bool";
    case GgufType::string: return "string";
    case GgufType::array: return "array";
    case GgufType::uint64: return "u64";
    case GgufType::int64: return "i64";
    case GgufType::float64: return "f64";
  }
  return "unknown";
}

std::optional<std::int64_t> integer_of(const GgufScalar& scalar) {
  if (const auto* u = std::get_if<std::uint64_t>(&scalar))
    if (*u <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
      return static_cast<std::int64_t>(*u);
  if (const auto* i = std::get_if<std::int64_t>(&scalar)) return *i;
  return std::nullopt;
}

std::optional<double> number_of(const GgufScalar& scalar) {
  if (const auto* u = std::get_if<std::uint64_t>(&scalar)) return static_cast<double>(*u);
  if (const auto* i = std::get_if<std::int64_t>(&scalar)) return static_cast<double>(*i);
  if (const auto* d = std::get_if<double>(&scalar)) return *d;
  return std::nullopt;
}

std::optional<bool> bool_of(const GgufScalar& scalar) {
  if (const auto* b = std::get_if<bool>(&scalar)) return *b;
  return std::nullopt;
}

std::optional<std::int64_t> GgufValue::as_integer() const {
  const auto* scalar = std::get_if<GgufScalar>(&data);
  return scalar ? integer_of(*scalar) : std::nullopt;
}

std::optional<double> GgufValue::as_number() const {
  const auto* scalar = std::get_if<GgufScalar>(&data);
  return scalar ? number_of(*scalar) : std::nullopt;
}

std::optional<bool> GgufValue::as_bool() const {
  const auto* scalar = std::get_if<GgufScalar>(&data);
  return scalar ? bool_of(*scalar) : std::nullopt;
}

const std::string* GgufValue::as_string() const {
  const auto* text = std::get_if<std::string>(&data);
  return text && text->size() == string_bytes ? text : nullptr;
}

const GgufArray* GgufValue::as_array() const { return std::get_if<GgufArray>(&data); }

const GgufValue* GgufFile::find(std::string_view key) const {
  auto it = kv.find(key);
  return it == kv.end() ? nullptr : &it->second;
}

std::uint64_t GgufTensorInfo::elements() const {
  std::uint64_t product = 1;
  for (std::uint64_t extent : dims) product *= extent;  // the reader checked that the product fits
  return product;
}

std::vector<std::uint64_t> GgufTensorInfo::torch_shape() const { return {dims.rbegin(), dims.rend()}; }

std::optional<std::uint64_t> GgufFile::offset_of(std::string_view name) const {
  if (const GgufValue* value = find(name)) return value->offset;
  if (auto it = rope_tensor_info_offsets.find(name); it != rope_tensor_info_offsets.end()) return it->second;
  return std::nullopt;
}

namespace {

// Random access to the bytes of a file or of a buffer.
class ByteSource {
 public:
  virtual ~ByteSource() = default;
  virtual std::uint64_t size() const = 0;
  // Copies `count` bytes at `offset`; the caller has checked that they lie inside the source.
  virtual void read(std::uint64_t offset, char* out, std::size_t count) = 0;
};

class MemorySource final : public ByteSource {
 public:
  explicit MemorySource(std::string_view bytes) : bytes_(bytes) {}
  std::uint64_t size() const override { return bytes_.size(); }
  void read(std::uint64_t offset, char* out, std::size_t count) override {
    if (count > 0) std::memcpy(out, bytes_.data() + offset, count);
  }

 private:
  std::string_view bytes_;
};

// A file held in parts (FileBytes): a read of bytes not held throws BytesNotRead, naming them.
class PartsSource final : public ByteSource {
 public:
  explicit PartsSource(const FileBytes& file) : file_(file) {}
  std::uint64_t size() const override { return file_.size; }
  void read(std::uint64_t offset, char* out, std::size_t count) override {
    if (count > 0) std::memcpy(out, file_.at(offset, count).data(), count);
  }

 private:
  const FileBytes& file_;
};

class FileSource final : public ByteSource {
 public:
  FileSource(const std::string& path, std::uint64_t size) : path_(path), size_(size), in_(path, std::ios::binary) {
    if (!in_) throw InputError(path_, fmt::format("cannot open: {}", std::strerror(errno)));
  }
  std::uint64_t size() const override { return size_; }
  void read(std::uint64_t offset, char* out, std::size_t count) override {
    in_.clear();
    in_.seekg(static_cast<std::streamoff>(offset));
    in_.read(out, static_cast<std::streamsize>(count));
    if (!in_ || static_cast<std::size_t>(in_.gcount()) != count)
      throw InputError(path_, fmt::format("read of {} bytes at byte {} failed", count, offset));
  }

 private:
  std::string path_;
  std::uint64_t size_;
  std::ifstream in_;
};

// A stream read once from its start (a git blob through a pipe). The last MiB or so read stays, so the cursor may
// fill its window again from inside it, and so may a RoPE factor tensor whose data overlap another's (at most 256
// KiB each); what lies before it is gone, and the bytes skipped on the way to a later offset are read and dropped.
class StreamSource final : public ByteSource {
 public:
  StreamSource(std::string display, std::uint64_t size, std::string first_bytes, const ReadSome& read_some)
      : display_(std::move(display)), size_(size), kept_(std::move(first_bytes)), read_some_(read_some) {}
  std::uint64_t size() const override { return size_; }
  void read(std::uint64_t offset, char* out, std::size_t count) override {
    if (offset < kept_start_)
      throw InputError(display_, fmt::format("byte {} of the stream was needed after it had passed (byte {} is the "
                                             "earliest kept)",
                                             offset, kept_start_));
    if (offset > end()) {
      kept_start_ = end();
      kept_.clear();
      drop(offset - kept_start_);
    }
    while (end() < offset + count) pull(offset + count - end());
    if (count > 0) std::memcpy(out, kept_.data() + (offset - kept_start_), count);
    if (kept_.size() > 2 * kHistoryBytes) {  // trimmed in halves, so each byte is moved about once
      const std::size_t gone = kept_.size() - kHistoryBytes;
      kept_.erase(0, gone);
      kept_start_ += gone;
    }
  }

 private:
  static constexpr std::size_t kChunkBytes = 64 * 1024;
  static constexpr std::size_t kHistoryBytes = (1u << 20) + kChunkBytes;

  std::uint64_t end() const { return kept_start_ + kept_.size(); }

  // Appends up to `wanted` bytes from the stream to kept_.
  void pull(std::uint64_t wanted) {
    const std::size_t before = kept_.size();
    kept_.resize(before + static_cast<std::size_t>(std::min<std::uint64_t>(wanted, kChunkBytes)));
    const std::size_t got = read_some_(kept_.data() + before, kept_.size() - before);
    kept_.resize(before + got);
    if (got == 0) ended_early();
  }

  // Reads and forgets `count` bytes.
  void drop(std::uint64_t count) {
    std::vector<char> scratch(static_cast<std::size_t>(std::min<std::uint64_t>(count, kChunkBytes)));
    while (count > 0) {
      const std::size_t got =
          read_some_(scratch.data(), static_cast<std::size_t>(std::min<std::uint64_t>(count, scratch.size())));
      if (got == 0) ended_early();
      count -= got;
      kept_start_ += got;  // kept_ is empty: end() is the stream's position
    }
  }

  [[noreturn]] void ended_early() const {
    throw InputError(display_,
                     fmt::format("the stream ended after byte {}, before the {} bytes it announced", end(), size_));
  }

  std::string display_;
  std::uint64_t size_;
  std::string kept_;  // the bytes [kept_start_, end()) of the stream
  std::uint64_t kept_start_ = 0;
  const ReadSome& read_some_;
};

// Sequential little-endian reads through a small window, so skipping a 150,000-string vocabulary costs no I/O.
class Cursor {
 public:
  Cursor(ByteSource& source, std::string display)
      : source_(source), display_(std::move(display)), size_(source.size()) {}

  const std::string& display() const { return display_; }
  std::uint64_t offset() const { return offset_; }
  std::uint64_t size() const { return size_; }
  std::uint64_t remaining() const { return size_ - offset_; }
  void seek(std::uint64_t offset) { offset_ = std::min(offset, size_); }

  [[noreturn]] void fail(const std::string& message) const { throw InputError(display_, message); }

  void require(std::uint64_t count, std::string_view what) const {
    if (count > remaining())
      fail(fmt::format("file ends inside {} at byte {}: {} bytes needed, {} left", what, offset_, count, remaining()));
  }

  void skip(std::uint64_t count, std::string_view what) {
    require(count, what);
    offset_ += count;
  }

  void read_bytes(char* out, std::size_t count, std::string_view what) {
    require(count, what);
    if (!in_window(count)) {
      if (count >= kWindowBytes) {
        source_.read(offset_, out, count);
        offset_ += count;
        return;
      }
      fill_window();
    }
    if (count > 0) std::memcpy(out, window_.data() + (offset_ - window_start_), count);
    offset_ += count;
  }

  std::uint64_t unsigned_le(std::size_t width, std::string_view what) {
    std::array<char, 8> raw{};
    read_bytes(raw.data(), width, what);
    std::uint64_t value = 0;
    for (std::size_t i = 0; i < width; ++i)
      value |= static_cast<std::uint64_t>(static_cast<unsigned char>(raw[i])) << (8 * i);
    return value;
  }
  std::uint8_t u8(std::string_view what) { return static_cast<std::uint8_t>(unsigned_le(1, what)); }
  std::uint16_t u16(std::string_view what) { return static_cast<std::uint16_t>(unsigned_le(2, what)); }
  std::uint32_t u32(std::string_view what) { return static_cast<std::uint32_t>(unsigned_le(4, what)); }
  std::uint64_t u64(std::string_view what) { return unsigned_le(8, what); }
  float f32(std::string_view what) { return std::bit_cast<float>(u32(what)); }
  double f64(std::string_view what) { return std::bit_cast<double>(u64(what)); }

 private:
  static constexpr std::size_t kWindowBytes = 64 * 1024;

  bool in_window(std::uint64_t count) const {
    return offset_ >= window_start_ && offset_ - window_start_ + count <= window_.size();
  }
  void fill_window() {
    window_start_ = offset_;
    window_.resize(static_cast<std::size_t>(std::min<std::uint64_t>(kWindowBytes, remaining())));
    source_.read(window_start_, window_.data(), window_.size());
  }

  ByteSource& source_;
  std::string display_;
  std::uint64_t size_;
  std::uint64_t offset_ = 0;
  std::vector<char> window_;  // the bytes [window_start_, window_start_ + window_.size())
  std::uint64_t window_start_ = 0;
};

constexpr std::uint64_t kMinKeyValueBytes = 8 + 4 + 1;        // empty key, type id, one-byte value
constexpr std::uint64_t kMinTensorInfoBytes = 8 + 4 + 4 + 8;  // empty name, n_dims 0, type, offset
constexpr std::uint64_t kMaxSignedValue = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());

// Bytes per element of a fixed-size value type; 0 for strings and arrays.
std::uint64_t fixed_size(GgufType type) {
  switch (type) {
    case GgufType::uint8:
    case GgufType::int8:
    case GgufType::boolean: return 1;
    case GgufType::uint16:
    case GgufType::int16: return 2;
    case GgufType::uint32:
    case GgufType::int32:
    case GgufType::float32: return 4;
    case GgufType::uint64:
    case GgufType::int64:
    case GgufType::float64: return 8;
    case GgufType::string:
    case GgufType::array: return 0;
  }
  return 0;
}

bool is_known_type(std::uint32_t id) { return id <= static_cast<std::uint32_t>(GgufType::float64); }

// Whether `elements` of a ggml type fit in `room` bytes, without overflow: whole blocks of the type's block size.
bool fits_in(std::uint32_t ggml_type, std::uint64_t elements, std::uint64_t room) {
  const GgmlTypeTraits* traits = ggml_type_traits(ggml_type);
  if (!traits || traits->block_bytes == 0) return true;  // an unknown type: its size is reported as unknown
  const std::uint64_t blocks = elements / traits->block_values + (elements % traits->block_values != 0);
  return blocks <= room / traits->block_bytes;
}

bool is_rope_tensor(std::string_view name) {
  return name == kRopeFreqsTensor || name == kRopeFactorsLongTensor || name == kRopeFactorsShortTensor;
}

// The first bytes of a file, printable.
std::string describe_magic(std::string_view bytes) {
  std::string out;
  for (char c : bytes) {
    auto byte = static_cast<unsigned char>(c);
    out += (byte >= 0x20 && byte < 0x7f && c != '\\' && c != '\'') ? std::string(1, c) : fmt::format("\\x{:02x}", byte);
  }
  return out;
}

struct TensorInfo {
  std::string name;
  std::uint64_t info_offset = 0;  // where the tensor's entry in the info table starts
  std::uint32_t ggml_type = 0;
  std::vector<std::uint64_t> dims;
  std::uint64_t elements = 0;
  std::uint64_t data_offset = 0;  // relative to the data section
};

class Parser {
 public:
  Parser(ByteSource& source, std::string display) : in_(source, std::move(display)) {}

  GgufFile parse() {
    file_.path = in_.display();
    file_.file_size = in_.size();
    read_header();
    read_key_values();
    read_tensor_infos();
    locate_data_section();
    for (const auto& tensor : tensors_) check_tensor_data(tensor);
    sum_tensors();
    for (const TensorInfo* tensor : rope_tensors_in_data_order()) {
      file_.rope_tensors[tensor->name] = read_rope_tensor(*tensor);
      file_.rope_tensor_info_offsets[tensor->name] = tensor->info_offset;
    }
    keep_tensor_infos();
    return std::move(file_);
  }

 private:
  void read_header() {
    if (in_.size() < 4) in_.fail(fmt::format("not a GGUF file: only {} bytes, too short for the magic", in_.size()));
    std::array<char, 4> magic{};
    in_.read_bytes(magic.data(), magic.size(), "the magic");
    std::string_view magic_text(magic.data(), magic.size());
    if (magic_text != kGgufMagic)
      in_.fail(fmt::format("not a GGUF file: the first 4 bytes are '{}', not 'GGUF'", describe_magic(magic_text)));
    file_.version = in_.u32("the version");
    check_version(file_.version);
    file_.tensor_count = in_.u64("the tensor count");
    file_.kv_count = in_.u64("the key-value count");
    check_counts();
  }

  void check_version(std::uint32_t version) const {
    if (version == 2 || version == 3) return;
    if (version == 1) in_.fail("GGUF version 1 is no longer supported (byte 4); convert the model again");
    if (version == 0) in_.fail("GGUF version 0 at byte 4 is invalid");
    if ((version & 0xFFFFu) == 0)
      in_.fail(
          fmt::format("GGUF version {:#010x} at byte 4 looks byte-swapped: probably a big-endian GGUF file, "
                      "which ropelens cannot read",
                      version));
    in_.fail(fmt::format("unsupported GGUF version {} at byte 4 (ropelens reads versions 2 and 3)", version));
  }

  void check_counts() const {
    if (file_.kv_count > kGgufMaxKvCount)
      in_.fail(fmt::format("key-value count {} at byte 16 is beyond the limit of {}", file_.kv_count, kGgufMaxKvCount));
    if (file_.tensor_count > kGgufMaxTensorCount)
      in_.fail(
          fmt::format("tensor count {} at byte 8 is beyond the limit of {}", file_.tensor_count, kGgufMaxTensorCount));
    // Both counts are below 2^20, so the product cannot overflow.
    const std::uint64_t least = file_.kv_count * kMinKeyValueBytes + file_.tensor_count * kMinTensorInfoBytes;
    if (least > in_.remaining())
      in_.fail(
          fmt::format("{} key-values and {} tensor infos need at least {} bytes, but only {} follow the header "
                      "at byte 24",
                      file_.kv_count, file_.tensor_count, least, in_.remaining()));
  }

  // A u64 length, checked against the bytes left before anything is allocated.
  std::uint64_t read_length(std::string_view what, std::uint64_t at) {
    const std::uint64_t length = in_.u64(what);
    if (length > in_.remaining())
      in_.fail(fmt::format("{} at byte {}: length {} is longer than the {} bytes left in the file", what, at, length,
                           in_.remaining()));
    return length;
  }

  std::string read_name(std::string_view what) {
    const std::uint64_t at = in_.offset();
    const std::uint64_t length = read_length(what, at);
    if (length > kGgufMaxNameBytes)
      in_.fail(
          fmt::format("{} at byte {}: length {} exceeds the limit of {} bytes", what, at, length, kGgufMaxNameBytes));
    std::string name(static_cast<std::size_t>(length), '\0');
    in_.read_bytes(name.data(), name.size(), what);
    return name;
  }

  void read_key_values() {
    for (std::uint64_t i = 0; i < file_.kv_count; ++i) {
      const std::uint64_t at = in_.offset();
      std::string key = read_name("key");
      if (file_.kv.count(key)) in_.fail(fmt::format("duplicate key '{}' at byte {}", key, at));
      const std::uint32_t type_id = in_.u32("a value type");
      if (!is_known_type(type_id))
        in_.fail(fmt::format("key '{}' at byte {}: unknown value type {}", key, at, type_id));
      GgufValue value = read_value(static_cast<GgufType>(type_id), key, at);
      if (key == "general.alignment") read_alignment(value, at);
      file_.kv.emplace(std::move(key), std::move(value));
    }
  }

  GgufValue read_value(GgufType type, const std::string& key, std::uint64_t at) {
    GgufValue value;
    value.type = type;
    value.offset = at;
    if (type == GgufType::string) {
      value.string_bytes = read_length(fmt::format("the string value of '{}'", key), at);
      value.data = read_or_skip_string(value.string_bytes, key);
    } else if (type == GgufType::array) {
      value.data = read_array(key, at);
    } else {
      value.data = read_scalar(type, key);
    }
    return value;
  }

  std::string read_or_skip_string(std::uint64_t length, const std::string& key) {
    if (length > kGgufMaxKeptStringBytes) {
      in_.skip(length, fmt::format("the string value of '{}'", key));
      return {};
    }
    std::string text(static_cast<std::size_t>(length), '\0');
    in_.read_bytes(text.data(), text.size(), fmt::format("the string value of '{}'", key));
    return text;
  }

  GgufScalar read_scalar(GgufType type, const std::string& key) {
    const std::string what = fmt::format("the value of '{}'", key);
    switch (type) {
      case GgufType::uint8: return std::uint64_t{in_.u8(what)};
      case GgufType::int8: return std::int64_t{static_cast<std::int8_t>(in_.u8(what))};
      case GgufType::uint16: return std::uint64_t{in_.u16(what)};
      case GgufType::int16: return std::int64_t{static_cast<std::int16_t>(in_.u16(what))};
      case GgufType::uint32: return std::uint64_t{in_.u32(what)};
      case GgufType::int32: return std::int64_t{static_cast<std::int32_t>(in_.u32(what))};
      case GgufType::float32: return static_cast<double>(in_.f32(what));
      case GgufType::boolean: return in_.u8(what) != 0;
      case GgufType::uint64: return in_.u64(what);
      case GgufType::int64: return static_cast<std::int64_t>(in_.u64(what));
      case GgufType::float64: return in_.f64(what);
      case GgufType::string:
      case GgufType::array: break;
    }
    in_.fail(fmt::format("key '{}': {} is not a scalar type", key, to_string(type)));
  }

  GgufArray read_array(const std::string& key, std::uint64_t at) {
    GgufArray array;
    const std::uint32_t element_id = in_.u32(fmt::format("the element type of '{}'", key));
    if (!is_known_type(element_id))
      in_.fail(fmt::format("array '{}' at byte {}: unknown element type {}", key, at, element_id));
    array.element_type = static_cast<GgufType>(element_id);
    if (array.element_type == GgufType::array)
      in_.fail(fmt::format("array '{}' at byte {}: nested arrays are not supported (ggml rejects them)", key, at));
    array.count = in_.u64(fmt::format("the element count of '{}'", key));

    if (array.element_type == GgufType::string) {
      skip_strings(array.count, key, at);
      return array;
    }
    const std::uint64_t width = fixed_size(array.element_type);
    if (array.count > in_.remaining() / width)
      in_.fail(fmt::format("array '{}' at byte {}: {} elements of {} bytes cannot fit in the {} bytes left in the file",
                           key, at, array.count, width, in_.remaining()));
    if (array.count > kGgufMaxKeptArrayElements) {
      in_.skip(array.count * width, fmt::format("the elements of '{}'", key));
      return array;
    }
    array.elements.reserve(static_cast<std::size_t>(array.count));
    for (std::uint64_t i = 0; i < array.count; ++i) array.elements.push_back(read_scalar(array.element_type, key));
    return array;
  }

  // String arrays (tokenizer vocabularies) are walked by their lengths and never materialized.
  void skip_strings(std::uint64_t count, const std::string& key, std::uint64_t at) {
    if (count > in_.remaining() / 8)
      in_.fail(fmt::format("array '{}' at byte {}: {} strings cannot fit in the {} bytes left in the file", key, at,
                           count, in_.remaining()));
    const std::string what = fmt::format("a string in array '{}'", key);
    for (std::uint64_t i = 0; i < count; ++i) in_.skip(read_length(what, in_.offset()), what);
  }

  void read_alignment(const GgufValue& value, std::uint64_t at) {
    if (value.type != GgufType::uint32)
      in_.fail(fmt::format("general.alignment at byte {} must be a u32, found {}", at, to_string(value.type)));
    const auto alignment = static_cast<std::uint32_t>(*value.as_integer());
    if (!std::has_single_bit(alignment))
      in_.fail(fmt::format("general.alignment {} at byte {} is not a power of two", alignment, at));
    file_.alignment = alignment;
  }

  void read_tensor_infos() {
    std::unordered_set<std::string> names;
    tensors_.reserve(static_cast<std::size_t>(file_.tensor_count));
    for (std::uint64_t i = 0; i < file_.tensor_count; ++i) {
      TensorInfo tensor;
      tensor.info_offset = in_.offset();
      tensor.name = read_name("tensor name");
      if (!names.insert(tensor.name).second)
        in_.fail(fmt::format("duplicate tensor '{}' at byte {}", tensor.name, tensor.info_offset));
      tensor.elements = read_dims(tensor);
      tensor.ggml_type = in_.u32(fmt::format("the type of tensor '{}'", tensor.name));
      tensor.data_offset = in_.u64(fmt::format("the data offset of tensor '{}'", tensor.name));
      tensors_.push_back(std::move(tensor));
    }
  }

  // Reads the dims into `tensor` and returns their product.
  std::uint64_t read_dims(TensorInfo& tensor) {
    const std::uint32_t n_dims = in_.u32(fmt::format("the dimension count of tensor '{}'", tensor.name));
    if (n_dims > kGgufMaxDims)
      in_.fail(fmt::format("tensor '{}' at byte {}: {} dimensions, more than the {} ggml supports", tensor.name,
                           tensor.info_offset, n_dims, kGgufMaxDims));
    std::uint64_t elements = 1;
    for (std::uint32_t d = 0; d < n_dims; ++d) {
      const std::uint64_t extent = in_.u64(fmt::format("a dimension of tensor '{}'", tensor.name));
      if (extent > kMaxSignedValue || (extent != 0 && elements > kMaxSignedValue / extent))
        in_.fail(fmt::format("tensor '{}' at byte {}: its element count overflows (dimension {} is {})", tensor.name,
                             tensor.info_offset, d, extent));
      elements *= extent;
      tensor.dims.push_back(extent);
    }
    return elements;
  }

  void locate_data_section() {
    const std::uint64_t end_of_infos = in_.offset();
    const std::uint64_t padding = (file_.alignment - end_of_infos % file_.alignment) % file_.alignment;
    file_.data_offset = end_of_infos + padding;  // end_of_infos <= file size < 2^63: no overflow
    if (!tensors_.empty() && file_.data_offset > in_.size())
      in_.fail(
          fmt::format("the data section would start at byte {} (tensor infos end at byte {}, aligned to {}), "
                      "past the end of the file ({} bytes)",
                      file_.data_offset, end_of_infos, file_.alignment, in_.size()));
  }

  void check_tensor_data(const TensorInfo& tensor) const {
    if (tensor.data_offset % file_.alignment != 0)
      in_.fail(fmt::format("tensor '{}' (info at byte {}): data offset {} is not a multiple of the alignment {}",
                           tensor.name, tensor.info_offset, tensor.data_offset, file_.alignment));
    if (tensor.data_offset > std::numeric_limits<std::uint64_t>::max() - file_.data_offset)
      in_.fail(
          fmt::format("tensor '{}' (info at byte {}): data offset {} overflows when added to the data section "
                      "start {}",
                      tensor.name, tensor.info_offset, tensor.data_offset, file_.data_offset));
    const std::uint64_t room = in_.size() - file_.data_offset;
    if (tensor.data_offset > room)
      in_.fail(
          fmt::format("tensor '{}' (info at byte {}): its data at byte {} lies beyond the end of the file "
                      "({} bytes)",
                      tensor.name, tensor.info_offset, file_.data_offset + tensor.data_offset, in_.size()));
    if (!fits_in(tensor.ggml_type, tensor.elements, room - tensor.data_offset))
      in_.fail(
          fmt::format("tensor '{}' (info at byte {}): {} elements of {} at byte {} run past the end of the "
                      "file ({} bytes)",
                      tensor.name, tensor.info_offset, tensor.elements, ggml_type_name(tensor.ggml_type),
                      file_.data_offset + tensor.data_offset, in_.size()));
  }

  // Parameters and bytes of every tensor; element counts are below 2^63 each and at most 2^20 tensors, so a sum
  // that would overflow is reported as unknown instead.
  void sum_tensors() {
    std::uint64_t bytes = 0;
    bool sized = true;
    for (const auto& tensor : tensors_) {
      if (file_.tensor_elements > std::numeric_limits<std::uint64_t>::max() - tensor.elements) sized = false;
      else file_.tensor_elements += tensor.elements;
      const auto tensor_bytes = ggml_tensor_bytes(tensor.ggml_type, tensor.elements);
      if (!tensor_bytes || bytes > std::numeric_limits<std::uint64_t>::max() - *tensor_bytes) sized = false;
      else bytes += *tensor_bytes;
    }
    if (sized) file_.tensor_bytes = bytes;
  }

  // The RoPE factor tensors in the order their data lies in the file, so a stream is read forward only.
  std::vector<const TensorInfo*> rope_tensors_in_data_order() const {
    std::vector<const TensorInfo*> found;
    for (const auto& tensor : tensors_)
      if (is_rope_tensor(tensor.name)) found.push_back(&tensor);
    std::sort(found.begin(), found.end(),
              [](const TensorInfo* a, const TensorInfo* b) { return a->data_offset < b->data_offset; });
    return found;
  }

  void keep_tensor_infos() {
    file_.tensors.reserve(tensors_.size());
    for (auto& tensor : tensors_)
      file_.tensors.push_back(
          {std::move(tensor.name), std::move(tensor.dims), tensor.ggml_type, tensor.data_offset, tensor.info_offset});
  }

  std::vector<float> read_rope_tensor(const TensorInfo& tensor) {
    if (tensor.ggml_type != 0)
      in_.fail(fmt::format("tensor '{}' (info at byte {}) is {}; only F32 RoPE factor tensors can be read", tensor.name,
                           tensor.info_offset, ggml_type_name(tensor.ggml_type)));
    if (tensor.elements > kGgufMaxRopeTensorElements)
      in_.fail(fmt::format("tensor '{}' (info at byte {}) has {} elements; a RoPE factor tensor has at most {}",
                           tensor.name, tensor.info_offset, tensor.elements, kGgufMaxRopeTensorElements));
    in_.seek(file_.data_offset + tensor.data_offset);  // checked in check_tensor_data
    std::vector<float> values(static_cast<std::size_t>(tensor.elements));
    for (auto& value : values) value = in_.f32(fmt::format("the data of tensor '{}'", tensor.name));
    return values;
  }

  Cursor in_;
  GgufFile file_;
  std::vector<TensorInfo> tensors_;
};

}  // namespace

bool looks_like_gguf_bytes(std::string_view bytes) { return bytes.substr(0, kGgufMagic.size()) == kGgufMagic; }

bool looks_like_gguf(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::array<char, 4> magic{};
  if (!in.read(magic.data(), magic.size())) return false;
  return looks_like_gguf_bytes(std::string_view(magic.data(), magic.size()));
}

GgufFile read_gguf(const std::string& path, const std::optional<std::string>& shown) {
  const std::string& display = shown ? *shown : path;
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) throw InputError(display, "is a directory, not a GGUF file");
  const std::uintmax_t size = std::filesystem::file_size(path, error);
  if (error) throw InputError(display, fmt::format("cannot read: {}", error.message()));
  FileSource source(path, size);
  return Parser(source, display).parse();
}

GgufFile read_gguf_stream(std::string display_path, std::uint64_t size, std::string first_bytes,
                          const ReadSome& read_some) {
  StreamSource source(display_path, size, std::move(first_bytes), read_some);
  return Parser(source, std::move(display_path)).parse();
}

GgufFile read_gguf_bytes(std::string display_path, std::string_view bytes) {
  MemorySource source(bytes);
  return Parser(source, std::move(display_path)).parse();
}

GgufFile read_gguf_bytes(const FileBytes& file) {
  PartsSource source(file);
  return Parser(source, file.shown).parse();
}

}  // namespace ropelens
