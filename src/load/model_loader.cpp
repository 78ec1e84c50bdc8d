#include "ropelens/load/model_loader.hpp"

#include <algorithm>
#include <filesystem>
#include <limits>
#include <map>
#include <stdexcept>

#include <fmt/format.h>

#include "ropelens/input/file_bytes.hpp"
#include "ropelens/input/gguf.hpp"
#include "ropelens/input/git.hpp"
#include "ropelens/input/input.hpp"
#include "ropelens/input/model_locator.hpp"
#include "ropelens/input/safetensors.hpp"
#include "ropelens/normalize/normalize.hpp"

namespace ropelens {

Edit parse_edit(const std::string& spec) {
  auto equals = spec.find('=');
  if (equals == std::string::npos || equals == 0 || spec[0] != '/')
    throw std::invalid_argument(fmt::format("--set '{}': expected POINTER=JSON, e.g. /rope_theta=1000000", spec));
  Edit edit;
  edit.pointer = spec.substr(0, equals);
  try {
    edit.value = nlohmann::json::parse(spec.substr(equals + 1));
  } catch (const nlohmann::json::parse_error& e) {
    throw std::invalid_argument(fmt::format("--set '{}': the value is not JSON (byte {})", spec, e.byte));
  }
  return edit;
}

namespace {

bool has_gguf_extension(const std::string& path) {
  return path.size() >= 5 && path.compare(path.size() - 5, 5, ".gguf") == 0;
}

// The first bytes of a file as hex, e.g. "7b 0a 20 20" for a JSON file.
std::string first_bytes_hex(const std::string& bytes) {
  if (bytes.empty()) return "nothing (the file is empty)";
  std::string hex;
  for (std::size_t i = 0; i < std::min<std::size_t>(bytes.size(), 4); ++i)
    hex += fmt::format("{}{:02x}", i == 0 ? "" : " ", static_cast<unsigned char>(bytes[i]));
  return hex;
}

void apply_edit(nlohmann::json& root, const Edit& edit, const std::string& file) {
  try {
    nlohmann::json::json_pointer pointer(edit.pointer);
    root[pointer] = edit.value;
  } catch (const nlohmann::json::exception& e) {
    throw InputError(file, fmt::format("--set {}: {}", edit.pointer, e.what()));
  }
}

// A model named by id is shown by its id and revision; the file read stays in Model::reference.
void name_model(LoadedModel& loaded, const LocatedModel& located) {
  if (!located.reference) return;
  for (Model* model : {&loaded.model, loaded.as_trained ? &*loaded.as_trained : nullptr}) {
    if (model == nullptr) continue;
    model->source = located.shown;
    model->reference = located.reference;
  }
}

bool is_inv_freq_buffer(std::string_view name) {
  constexpr std::string_view kSuffix = "rotary_emb.inv_freq";
  return name.size() >= kSuffix.size() && name.compare(name.size() - kSuffix.size(), kSuffix.size(), kSuffix) == 0;
}

// "model.safetensors" or "3 shards of model.safetensors.index.json", as the weights' provenance names them.
std::string checkpoint_source(const CheckpointWeights& weights, const std::string& folder) {
  if (weights.files.size() == 1 && std::filesystem::path(weights.files.front()).filename() == "model.safetensors")
    return weights.files.front();
  return fmt::format("{} shard{} of {}", weights.files.size(), weights.files.size() == 1 ? "" : "s",
                     (std::filesystem::path(folder) / "model.safetensors.index.json").string());
}

Checkpoint to_checkpoint(const CheckpointWeights& weights) {
  Checkpoint checkpoint{weights.files, {}, weights.bytes, weights.parameters};
  std::map<std::string, SafetensorsHeader> headers;  // read again only for the few inv_freq buffers
  for (const auto& [file, tensor] : weights.tensors) {
    CheckpointTensor stored{tensor.name, tensor.dtype, tensor.shape, file, {}};
    if (is_inv_freq_buffer(tensor.name) && tensor.elements() <= kMaxTensorValuesRead) {
      auto header = headers.find(file);
      if (header == headers.end()) header = headers.emplace(file, read_safetensors_header(file)).first;
      stored.values = read_safetensors_values(header->second, tensor);
    }
    checkpoint.tensors.push_back(std::move(stored));
  }
  return checkpoint;
}

// The index's metadata.total_size, when its shards are not all beside it (a partial download).
void read_index_total_size(Model& model, const std::string& folder, const std::string& missing_shard) {
  const auto index = read_safetensors_index(folder);
  if (!index) return;
  if (!index->total_size) {
    model.notes.push_back(index->problem);
    return;
  }
  if (!missing_shard.empty())
    model.notes.push_back(
        fmt::format("{} is absent: the weights' size is the index's metadata.total_size, and "
                    "their tensors are not checked against the config",
                    missing_shard));
  model.weights_bytes = Field<std::uint64_t>{
      *index->total_size,
      Provenance::derived(fmt::format("metadata.total_size of {}", index->path), "/metadata/total_size")};
}

// The weights beside a config.json: the safetensors headers of model.safetensors or of every shard of
// model.safetensors.index.json, else the index's metadata.total_size. A header that cannot be read is an error.
void read_weights_beside(Model& model, const std::string& config_path) {
  const std::string folder = std::filesystem::path(config_path).parent_path().string();
  std::string missing_shard;
  const auto weights = read_checkpoint_weights(folder, &missing_shard);
  if (!weights) {
    read_index_total_size(model, folder, missing_shard);
    return;
  }
  const std::string source = checkpoint_source(*weights, folder);
  const std::string counted = fmt::format("{} tensors, tied storage once", weights->tensors.size());
  model.weights_bytes = Field<std::uint64_t>{
      weights->bytes, Provenance::derived(fmt::format("safetensors headers of {}: {}", source, counted))};
  model.weights_parameters = Field<std::uint64_t>{
      weights->parameters, Provenance::derived(fmt::format("safetensors headers of {}: shape products", source))};
  model.checkpoint = to_checkpoint(*weights);
}

// What a fine-tune keeps of its base besides the RoPE: the hidden size, and the name it was loaded from.
void record_identity(Model& model, const nlohmann::json& root) {
  for (const std::string& at : {model.text_pointer, std::string()}) {
    const nlohmann::json::json_pointer pointer(at);
    if (!root.contains(pointer) || !root[pointer].is_object()) continue;
    const auto hidden = root[pointer].find("hidden_size");
    if (hidden == root[pointer].end() || !hidden->is_number_integer()) continue;
    const auto value = hidden->get<std::int64_t>();
    if (value <= 0 || value > (1 << 24)) continue;
    model.hidden_size = Field<int>{static_cast<int>(value), Provenance::at(at + "/hidden_size")};
    break;
  }
  if (!root.is_object()) return;
  for (const char* key : {"base_model", "_name_or_path"}) {
    const auto name = root.find(key);
    if (name == root.end() || !name->is_string() || name->get<std::string>().empty()) continue;
    model.name_or_path = Field<std::string>{name->get<std::string>(), Provenance::at(std::string("/") + key)};
    return;
  }
}

// The vocabulary size as the config states it (the language model's object first), for checkpoint checks.
void record_vocab_size(Model& model, const nlohmann::json& root) {
  for (const std::string& at : {model.text_pointer, std::string()}) {
    const nlohmann::json::json_pointer pointer(at);
    if (!root.contains(pointer)) continue;
    const auto& object = root[pointer];
    if (!object.is_object()) continue;
    const auto vocab = object.find("vocab_size");
    if (vocab == object.end() || !vocab->is_number_integer() || vocab->get<std::int64_t>() <= 0) continue;
    model.vocab_size = Field<std::int64_t>{vocab->get<std::int64_t>(), Provenance::at(at + "/vocab_size")};
    break;
  }
  record_identity(model, root);
}

// A GGUF's tensor infos as the checkpoint the CKPT rules read: GGUF names, shapes in torch order.
Checkpoint gguf_checkpoint(const GgufFile& gguf) {
  Checkpoint checkpoint{{gguf.path}, {}, gguf.tensor_bytes.value_or(0), gguf.tensor_elements};
  checkpoint.tensors.reserve(gguf.tensors.size());
  for (const auto& tensor : gguf.tensors)
    checkpoint.tensors.push_back({tensor.name, ggml_type_name(tensor.ggml_type), tensor.torch_shape(), gguf.path, {}});
  std::sort(checkpoint.tensors.begin(), checkpoint.tensors.end(),
            [](const CheckpointTensor& a, const CheckpointTensor& b) { return a.name < b.name; });
  return checkpoint;
}

// What a GGUF's own tensors state, beside what its metadata states: the parameter count and the tensors for the
// checkpoint rules.
void record_gguf_tensors(Model& model, const GgufFile& gguf) {
  if (gguf.tensors.empty()) return;
  model.weights_parameters = Field<std::uint64_t>{
      gguf.tensor_elements,
      Provenance::derived("sum of the tensors' element counts in the GGUF header", "gguf:tensors")};
  model.checkpoint = gguf_checkpoint(gguf);
}

// The first of the general.* keys that name the model the file was made from: its base model's name or repository
// for a fine-tune, else its own name.
std::optional<Field<std::string>> gguf_model_name(const GgufFile& gguf) {
  for (const char* key : {"general.base_model.0.name", "general.base_model.0.repo_url", "general.name"})
    if (const GgufValue* value = gguf.find(key); value && value->as_string() && !value->as_string()->empty())
      return Field<std::string>{*value->as_string(), Provenance::at(gguf_pointer(key))};
  return std::nullopt;
}

// What a known base is matched on, as the file states it: the hidden size, the vocabulary (the checkpoint rules
// check the tensors against it too) and the general.* name.
void record_gguf_identity(Model& model, const GgufFile& gguf, const GgufMetadata& metadata) {
  if (metadata.embedding_length && *metadata.embedding_length > 0 && *metadata.embedding_length <= (1 << 24))
    model.hidden_size = Field<int>{static_cast<int>(*metadata.embedding_length),
                                   Provenance::at(gguf_pointer(model.model_type.value + ".embedding_length"))};
  if (metadata.vocabulary_size && *metadata.vocabulary_size > 0 &&
      *metadata.vocabulary_size <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
    model.vocab_size = Field<std::int64_t>{static_cast<std::int64_t>(*metadata.vocabulary_size),
                                           Provenance::at(gguf_pointer(metadata.vocabulary_from))};
  model.name_or_path = gguf_model_name(gguf);
}

LoadedModel load_gguf(const GgufFile& gguf, const std::vector<Edit>& edits) {
  if (!edits.empty()) throw InputError(gguf.path, "--set edits apply to config.json, not to GGUF files");
  LoadedModel loaded;
  loaded.model = model_from_gguf(gguf);
  loaded.gguf = gguf_metadata(gguf);
  record_gguf_tensors(loaded.model, gguf);
  record_gguf_identity(loaded.model, gguf, *loaded.gguf);
  for (const auto& [key, value] : gguf.kv) loaded.byte_offsets.emplace(gguf_pointer(key), value.offset);
  for (const auto& [name, offset] : gguf.rope_tensor_info_offsets)
    loaded.byte_offsets.emplace(gguf_pointer(name), offset);
  return loaded;
}

bool is_file_on_disk(const std::string& shown) {
  std::error_code ec;
  return shown != "-" && shown != "<stdin>" && std::filesystem::is_regular_file(shown, ec);
}

std::string directory_of(const std::string& path) {
  const std::string folder = std::filesystem::path(path).parent_path().string();
  return folder.empty() ? "." : folder;
}

// A pointer file in the work tree (the object was not checked out): where the repository would fetch it from.
LfsFile work_tree_lfs_file(const std::string& shown) {
  const std::string folder = directory_of(shown);
  std::string top;
  try {
    top = git_top_level(folder);
  } catch (const InputError& e) {
    throw InputError(shown, "a Git LFS pointer outside a git work tree, so no LFS store holds its object");
  }
  std::error_code ec;
  const auto absolute = std::filesystem::weakly_canonical(std::filesystem::absolute(shown, ec), ec);
  return {shown, std::filesystem::relative(absolute, std::filesystem::weakly_canonical(top, ec), ec).generic_string(),
          std::nullopt};
}

// The file a Git LFS pointer names, read from the local LFS store as the file it stands for.
LoadedModel load_lfs_object(const LfsPointer& pointer, const LfsFile& file, const std::string& directory,
                            const std::vector<Edit>& edits) {
  const std::string object = lfs_object(directory, pointer, file);
  if (looks_like_gguf(object)) return load_gguf(read_gguf(object, file.shown), edits);
  InputFile input = read_input_file(object);
  if (input.gguf) throw InputError(file.shown, "the Git LFS object changed while it was read");
  return load_model_bytes(file.shown, std::move(input.text), edits);
}

LoadedModel load_located(const LocatedModel& located, const std::vector<Edit>& edits) {
  const bool from_stdin = located.path == "-";
  LoadedModel loaded = load_input(from_stdin ? read_stdin() : read_input_file(located.path), edits);
  if (!from_stdin && !loaded.gguf) read_weights_beside(loaded.model, loaded.model.source);
  name_model(loaded, located);
  return loaded;
}

}  // namespace

NotAModelConfig::NotAModelConfig(const std::string& file)
    : InputError(file, fmt::format("not a model config: it sets none of {} (a directory scan skips such files)",
                                   fmt::join(model_config_keys(), ", "))) {}

LoadedModel load_model(const std::string& path, const std::vector<Edit>& edits,
                       const std::optional<std::string>& revision) {
  return load_located(locate_model(path, revision), edits);
}

namespace {

// A model as a launch runs it, from wherever its bytes are: `load` reads the file with edits, `read_header` its GGUF
// header, `name` names the result as the file is shown.
template <class Load, class ReadHeader, class Name>
LoadedModel load_launched(const std::string& shown, const std::vector<Edit>& edits,
                          const std::map<std::string, GgufValue, std::less<>>& gguf_keys, const Load& load,
                          const ReadHeader& read_header, const Name& name) {
  if (gguf_keys.empty()) {
    LoadedModel loaded = load(std::vector<Edit>{});
    if (edits.empty()) return loaded;
    if (loaded.gguf)
      throw InputError(shown, "the launch line's config overrides apply to config.json, not to a GGUF file");
    return load(edits);
  }
  LoadedModel as_read = load(edits);
  if (!as_read.gguf)
    throw InputError(shown,
                     "the launch line's GGUF flags (--rope-scaling, --override-kv, …) apply to a GGUF "
                     "file, not to a config.json");
  GgufFile file = read_header();
  const GgufValue* arch = file.find("general.architecture");
  const std::string prefix = (arch && arch->as_string() ? *arch->as_string() : as_read.model.model_type.value) + ".";
  for (const auto& [key, value] : gguf_keys) {
    const std::string name_in_file = key.starts_with("{arch}.") ? prefix + key.substr(7) : key;
    GgufValue replaced = value;
    if (auto it = file.kv.find(name_in_file); it != file.kv.end()) replaced.offset = it->second.offset;
    file.kv[name_in_file] = replaced;
  }
  LoadedModel loaded = load_gguf(file, {});
  name(loaded);
  loaded.as_trained = std::move(as_read.model);
  return loaded;
}

}  // namespace

LoadedModel load_launched_model(const std::string& spec, const std::vector<Edit>& edits,
                                const std::map<std::string, GgufValue, std::less<>>& gguf_keys) {
  const LocatedModel located = locate_model(spec);
  return load_launched(
      located.shown, edits, gguf_keys, [&](const std::vector<Edit>& with) { return load_located(located, with); },
      [&] { return read_gguf(located.path); }, [&](LoadedModel& loaded) { name_model(loaded, located); });
}

LoadedModel load_launched_model(const FileBytes& file, const std::vector<Edit>& edits,
                                const std::map<std::string, GgufValue, std::less<>>& gguf_keys) {
  return load_launched(
      file.shown, edits, gguf_keys, [&](const std::vector<Edit>& with) { return load_file_bytes(file, with); },
      [&] { return read_gguf_bytes(file); }, [](LoadedModel&) {});
}

LoadedModel load_found_model(const std::string& path, const std::vector<Edit>& edits,
                             bool weights_index_listed_absent) {
  LoadedModel loaded = load_input(read_found_file(path), edits);
  if (!loaded.gguf && !weights_index_listed_absent) read_weights_beside(loaded.model, loaded.model.source);
  return loaded;
}

LoadedModel load_input(InputFile input, const std::vector<Edit>& edits) {
  if (input.gguf)
    return load_gguf(input.text.empty() ? read_gguf(input.shown) : read_gguf_bytes(input.shown, input.text), edits);
  if (auto pointer = parse_lfs_pointer(input.text); pointer && is_file_on_disk(input.shown))
    return load_lfs_object(*pointer, work_tree_lfs_file(input.shown), directory_of(input.shown), edits);
  if (has_gguf_extension(input.shown))
    throw InputError(input.shown, fmt::format("not a GGUF file (it starts with {}, not the magic GGUF)",
                                              first_bytes_hex(input.text)));
  return load_document(parse_config(std::move(input.shown), std::move(input.text)), edits);
}

void attach_conversion_source(LoadedModel& loaded, const std::optional<std::string>& source) {
  const std::string& file = loaded.model.reference ? loaded.model.reference->path : loaded.model.source;
  if (!loaded.gguf) {
    if (source)
      throw InputError(loaded.model.source,
                       "--source names the config a GGUF file was converted from, and this file is not GGUF");
    return;
  }
  if (source) {
    loaded.source = load_model(*source).model;
    loaded.model.notes.push_back(fmt::format("converted from {} (--source): its conversion is checked", *source));
    return;
  }
  if (file == "-") return;
  const auto beside = std::filesystem::path(file).parent_path() / "config.json";
  std::error_code ignored;
  if (!std::filesystem::is_regular_file(beside, ignored)) return;
  try {
    loaded.source = load_found_model(beside.string(), {}, true).model;
    loaded.model.notes.push_back(
        fmt::format("converted from {} beside it: its conversion is checked", beside.string()));
  } catch (const NotAModelConfig&) {
    loaded.model.notes.push_back(
        fmt::format("{} beside it is no model's config: the conversion is not checked", beside.string()));
  }
}

LoadedModel load_file_bytes(const FileBytes& file, const std::vector<Edit>& edits) {
  InputFile input = read_input_bytes(file);
  if (input.gguf) return load_gguf(read_gguf_bytes(file), edits);
  return load_input(std::move(input), edits);
}

namespace {

std::optional<LoadedModel> load_blob(const std::string& top_level, const std::string& revision, const std::string& path,
                                     const std::vector<Edit>& edits) {
  auto blob = GitBlobStream::open(top_level, revision, path);
  if (!blob) return std::nullopt;
  const ReadSome read_some = [&](char* out, std::size_t count) { return blob->read_some(out, count); };
  std::string head(static_cast<std::size_t>(std::min<std::uint64_t>(blob->size(), kMaxLfsPointerBytes)), '\0');
  for (std::size_t used = 0; used < head.size();) used += read_some(head.data() + used, head.size() - used);
  if (looks_like_gguf_bytes(head))
    return load_gguf(read_gguf_stream(blob->shown(), blob->size(), std::move(head), read_some), edits);
  if (auto pointer = parse_lfs_pointer(head); pointer && head.size() == blob->size())
    return load_lfs_object(*pointer, {blob->shown(), path, revision}, top_level, edits);
  if (blob->size() > kMaxConfigBytes) {
    const std::string what =
        has_gguf_extension(path)
            ? fmt::format("not a GGUF file (it starts with {}, not the magic GGUF)", first_bytes_hex(head))
            : fmt::format("{} bytes, larger than {} MiB: not a config.json", blob->size(), kMaxConfigBytes >> 20);
    throw InputError(blob->shown(), what);
  }
  std::string bytes = std::move(head) + blob->read_all(kMaxConfigBytes);
  return load_model_bytes(blob->shown(), std::move(bytes), edits);
}

}  // namespace

std::optional<LoadedModel> load_model_at_revision(const std::string& top_level, const std::string& revision,
                                                  const std::string& path, const std::vector<Edit>& edits) {
  std::optional<LoadedModel> loaded = load_blob(top_level, revision, path, edits);
  if (loaded) {
    const std::string in_work_tree = shown_path((std::filesystem::path(top_level) / path).string());
    for (Model* model : {&loaded->model, loaded->as_trained ? &*loaded->as_trained : nullptr})
      if (model) model->work_tree_file = in_work_tree;
  }
  return loaded;
}

LoadedModel load_model_bytes(std::string shown, std::string bytes, const std::vector<Edit>& edits) {
  const bool gguf = looks_like_gguf_bytes(bytes);
  return load_input(InputFile{std::move(shown), gguf, std::move(bytes)}, edits);
}

LoadedModel load_document(Document document, const std::vector<Edit>& edits) {
  if (!is_model_config(document.root)) throw NotAModelConfig(document.path);
  LoadedModel loaded;
  if (!edits.empty()) {
    loaded.as_trained = normalize(document);
    record_vocab_size(*loaded.as_trained, document.root);
  }
  for (const auto& edit : edits) apply_edit(document.root, edit, document.path);
  loaded.model = normalize(document);
  record_vocab_size(loaded.model, document.root);
  if (!edits.empty())
    loaded.model.notes.push_back(fmt::format("{} edit(s) from --set applied before analysis", edits.size()));
  loaded.text = std::move(document.text);
  return loaded;
}

}  // namespace ropelens
