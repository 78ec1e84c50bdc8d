// One entry point from a path (config.json, model folder, "-", and later GGUF) to a normalized Model.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ropelens/input/file_bytes.hpp"
#include "ropelens/input/gguf.hpp"
#include "ropelens/input/input.hpp"
#include "ropelens/model/model.hpp"

namespace ropelens {

struct LoadedModel {
  Model model;                       // the configuration that runs: the file with the edits applied
  std::optional<Model> as_trained;   // the same file before its edits (only when there are edits)
  std::string text;                  // the source text, for line/column lookups ("" for binary inputs)
  std::optional<GgufMetadata> gguf;  // the header facts of a GGUF input
  // GGUF files: where each key-value pair (and RoPE tensor info) starts, by the pointer that names it ("gguf:KEY").
  std::map<std::string, std::uint64_t, std::less<>> byte_offsets;
  // A GGUF file's source: the config.json it was converted from (attach_conversion_source), for the conversion rules.
  std::optional<Model> source;

  // The configuration the weights were trained with: what the training history is read from.
  const Model& trained() const { return as_trained ? *as_trained : model; }
};

struct Edit {
  std::string pointer;  // RFC 6901
  nlohmann::json value;
};

// A JSON file that is some other program's settings (is_model_config is false): a directory scan passes
// over it, and naming it is an error that says so.
class NotAModelConfig : public InputError {
 public:
  explicit NotAModelConfig(const std::string& file);
};

// Reads the file once and normalizes it with the edits applied (and, when there are edits, without them).
// Throws InputError for files that cannot be read as a model description (NotAModelConfig for JSON that
// holds none of model_config_keys()).
// `path` may also be a model id (locate_model); `revision` picks a Hugging Face revision. The weights' size comes
// from the GGUF tensors or the safetensors beside a config: the headers of model.safetensors or of every shard of
// model.safetensors.index.json (Model::checkpoint), else the index's metadata.total_size. A safetensors header
// that cannot be read throws InputError naming that file.
LoadedModel load_model(const std::string& path, const std::vector<Edit>& edits = {},
                       const std::optional<std::string>& revision = std::nullopt);
// The same for a file a directory scan found: a path known to exist and already shown as users see it, so no
// model-id lookup. When the scan's listing showed neither model.safetensors.index.json nor model.safetensors beside
// the file (`weights_index_listed_absent`), the loader does not look for them.
LoadedModel load_found_model(const std::string& path, const std::vector<Edit>& edits = {},
                             bool weights_index_listed_absent = false);
// The same for bytes already in memory, shown as `shown`: JSON or GGUF.
LoadedModel load_model_bytes(std::string shown, std::string bytes, const std::vector<Edit>& edits = {});
// The same for `path` (relative to the top level) at a git revision, shown as "REV:PATH"; none when the revision has
// no such file. A GGUF blob is streamed from git and only its header read, whatever its size; a Git LFS pointer is
// read as the object it names in the local LFS store (InputError with the fetch command when it is not there); any
// other file is read whole up to kMaxConfigBytes.
std::optional<LoadedModel> load_model_at_revision(const std::string& top_level, const std::string& revision,
                                                  const std::string& path, const std::vector<Edit>& edits = {});

// The same for a file held in memory, whole or in parts (input/file_bytes.hpp): a GGUF file is read from its header's
// bytes; BytesNotRead names the bytes a read lacks, and the caller reads them and calls again. No file system.
LoadedModel load_file_bytes(const FileBytes& file, const std::vector<Edit>& edits = {});

// The same for a file already read (read_input_file, read_stdin): GGUF by its magic, a Git LFS pointer as the object
// it names in the work tree's LFS store, else JSON.
LoadedModel load_input(InputFile input, const std::vector<Edit>& edits);
// The same for a document already read (e.g. once from stdin, then loaded with several sets of edits).
LoadedModel load_document(Document document, const std::vector<Edit>& edits);

// The config a GGUF file was converted from: `source` (a config.json path or a model id, as --source takes it), else
// the config.json beside the file when there is one. Throws InputError when `source` is given for a file that is
// not GGUF or cannot be read; a config.json beside the file that is no model's config is passed over with a note.
void attach_conversion_source(LoadedModel& loaded, const std::optional<std::string>& source);

// A model as a launch line runs it (engines/launch.hpp): `edits` applied to a config.json as --set applies them,
// `gguf_keys` replacing a GGUF file's keys ("{arch}." standing for its general.architecture) as llama.cpp's flags
// do; the file as it is becomes `as_trained`. Throws InputError when edits name a GGUF file or keys a config.
LoadedModel load_launched_model(const std::string& spec, const std::vector<Edit>& edits,
                                const std::map<std::string, GgufValue, std::less<>>& gguf_keys);
// The same for a model held in memory (the browser's pasted config or dropped GGUF header).
LoadedModel load_launched_model(const FileBytes& file, const std::vector<Edit>& edits,
                                const std::map<std::string, GgufValue, std::less<>>& gguf_keys);

// Parses "POINTER=JSON" (the --set syntax); throws std::invalid_argument with a one-line reason.
Edit parse_edit(const std::string& spec);

}  // namespace ropelens
