// Whole-path fuzz target for the weights beside a config: a safetensors header, a model.safetensors.index.json and its
// shards, and the checkpoint rules (CKPT401-CKPT404) run against a config, with every other rule and all four check
// renderers. The input is parts split at kPartSeparator:
//   config.json | first header's JSON | index JSON | second header's JSON | bytes the data region repeats
// A first byte below 0x80 lays the files out as one model.safetensors, one of 0x80 or more as an index naming two
// shards; its low bits pick variations the reader must refuse (a data region one byte short or long, a length prefix
// that overruns the file) and, with bit 0, the first header part as a whole file, length prefix included. Each
// header's data region is made as long as the largest end offset it declares (a sparse file), so that inputs reach
// the range checks and the rules instead of stopping at "the ranges do not cover the data".
// Beyond "no crash": only InputError may leave loading, every pointer a finding names is in the config, every number
// is finite, JSON and SARIF output parse, and the output stays within a bound of the input size.
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "fuzz_support.hpp"
#include "ropelens/input/safetensors.hpp"
#include "ropelens/render/render.hpp"

using namespace ropelens;
namespace fs = std::filesystem;

namespace {

constexpr std::string_view kPartSeparator = "\n@@@@\n";
constexpr std::uint64_t kLargestDataRegion = std::uint64_t{1} << 34;  // 16 GiB, sparse: no page is written
constexpr std::size_t kLargestDataPattern = 4096;

std::vector<std::string_view> parts_of(std::string_view bytes) {
  std::vector<std::string_view> parts;
  for (std::size_t at = 0;;) {
    const std::size_t next = bytes.find(kPartSeparator, at);
    parts.push_back(bytes.substr(at, next == std::string_view::npos ? std::string_view::npos : next - at));
    if (next == std::string_view::npos) break;
    at = next + kPartSeparator.size();
  }
  parts.resize(std::max<std::size_t>(parts.size(), 5));
  return parts;
}

// One folder per process (libFuzzer and the replay runner run inputs one after another), emptied for each input.
const fs::path& scratch_folder() {
  static const fs::path folder = [] {
    const fs::path shm = "/dev/shm";
    std::error_code ec;
    std::string pattern = ((fs::is_directory(shm, ec) ? shm : fs::temp_directory_path()) / "ropelens-fuzz-XXXXXX");
    if (::mkdtemp(pattern.data()) == nullptr) fuzz::fail("cannot make a scratch folder");
    std::atexit([] {
      std::error_code ignored;
      fs::remove_all(scratch_folder(), ignored);
    });
    return fs::path(pattern);
  }();
  return folder;
}

void write_file(const fs::path& path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) fuzz::fail("cannot write " + path.string());
}

// The largest end offset the header declares, when it parses as JSON and the offsets are numbers; else 0.
std::uint64_t declared_data_size(std::string_view header_json) {
  const nlohmann::json header = nlohmann::json::parse(header_json, nullptr, false);
  if (!header.is_object()) return 0;
  std::uint64_t largest = 0;
  for (const auto& [name, entry] : header.items()) {
    if (!entry.is_object()) continue;
    const auto offsets = entry.find("data_offsets");
    if (offsets == entry.end() || !offsets->is_array() || offsets->size() != 2) continue;
    if ((*offsets)[1].is_number_unsigned()) largest = std::max(largest, (*offsets)[1].get<std::uint64_t>());
  }
  return std::min(largest, kLargestDataRegion);
}

std::string length_prefix(std::uint64_t length) {
  std::string prefix;
  for (int i = 0; i < 8; ++i) prefix.push_back(static_cast<char>((length >> (8 * i)) & 0xFF));
  return prefix;
}

// A safetensors file: the length prefix, the header, and a data region as long as the header asks (give or take
// `size_error` bytes), sparse but for `pattern` at its start, so a stored inv_freq takes the input's values.
void write_safetensors(const fs::path& path, std::string_view header_json, std::string_view pattern,
                       std::int64_t size_error, std::uint64_t length_error) {
  const std::uint64_t declared = declared_data_size(header_json);
  const auto data_size =
      static_cast<std::uint64_t>(std::max<std::int64_t>(0, static_cast<std::int64_t>(declared) + size_error));
  std::string head = length_prefix(header_json.size() + length_error);
  head.append(header_json);
  head.append(pattern.substr(0, std::min<std::uint64_t>({pattern.size(), data_size, kLargestDataPattern})));
  write_file(path, head);
  std::error_code ec;
  fs::resize_file(path, 8 + header_json.size() + data_size, ec);
  if (ec) fuzz::fail("cannot size " + path.string() + ": " + ec.message());
}

void check_output(const FileResult& result, std::string_view format, std::size_t input_size) {
  std::ostringstream out;
  auto renderer = make_check_renderer(format, out);
  renderer->begin();
  renderer->file(result);
  CheckCounts counts;
  counts.add(result);
  renderer->end(counts);
  const std::string text = out.str();
  fuzz::require_bounded(text.size(), input_size, std::string(format) + " check output");
  fuzz::require_document(format, text);
}

// The first header alone, parsed from memory with a data region of the size it declares.
void parse_header_alone(std::string_view header_json) {
  try {
    const SafetensorsHeader header = parse_safetensors_header("fuzz.safetensors", header_json,
                                                              8 + header_json.size() + declared_data_size(header_json));
    for (const auto& tensor : header.tensors)
      fuzz::require(tensor.begin <= tensor.end, "a tensor range ends before it begins");
  } catch (const InputError&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
  const unsigned layout = data[0];
  const std::vector<std::string_view> parts = parts_of(bytes);
  const std::string_view config = parts[0], first_header = parts[1], index = parts[2], second_header = parts[3],
                         pattern = parts[4];
  parse_header_alone(first_header);

  const fs::path& folder = scratch_folder();
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(folder, ec)) fs::remove(entry.path(), ec);
  const std::int64_t size_error = (layout & 0x6) == 0x2 ? -1 : (layout & 0x6) == 0x4 ? 1 : 0;
  const std::uint64_t length_error = (layout & 0x8) != 0 ? 1 : 0;
  write_file(folder / "config.json", config);
  if (layout < 0x80) {
    if ((layout & 0x1) != 0) write_file(folder / "model.safetensors", first_header);
    else write_safetensors(folder / "model.safetensors", first_header, pattern, size_error, length_error);
  } else {
    write_file(folder / "model.safetensors.index.json", index);
    write_safetensors(folder / "model-00001-of-00002.safetensors", first_header, pattern, size_error, length_error);
    write_safetensors(folder / "model-00002-of-00002.safetensors", second_header, pattern, 0, 0);
  }

  LoadedModel loaded;
  try {
    loaded = load_model((folder / "config.json").string());
  } catch (const InputError&) {
    return 0;
  }
  CheckOptions options;
  options.target_tokens = fuzz::target_for(loaded.model, size);
  options.selection.select = {"ALL"};
  const FileResult result = check_model(std::move(loaded), options);
  fuzz::require_pointers_resolve(result, std::string(config), looks_like_gguf_bytes(config));
  for (const auto& d : result.diagnostics) fuzz::require_finite(d.facts, d.code + " facts");
  for (std::string_view format : {"text", "json", "sarif", "github"}) check_output(result, format, size);
  return 0;
}
