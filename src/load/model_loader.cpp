#include "ropelens/model_loader.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "ropelens/gguf.hpp"
#include "ropelens/input.hpp"
#include "ropelens/normalize.hpp"

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
std::string describe_magic(const std::string& bytes) {
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

}  // namespace

LoadedModel load_model(const std::string& path, const std::vector<Edit>& edits) {
  return load_input(path == "-" ? read_stdin() : read_input_file(path), edits);
}

LoadedModel load_input(InputFile input, const std::vector<Edit>& edits) {
  if (input.gguf) {
    if (!edits.empty()) throw InputError(input.shown, "--set edits apply to config.json, not to GGUF files");
    GgufFile gguf = input.text.empty() ? read_gguf(input.shown) : read_gguf_bytes(input.shown, input.text);
    LoadedModel loaded;
    loaded.model = model_from_gguf(gguf);
    return loaded;
  }
  if (has_gguf_extension(input.shown))
    throw InputError(input.shown, fmt::format("not a GGUF file (it starts with {}, not the magic GGUF)",
                                              describe_magic(input.text)));
  return load_document(parse_config(std::move(input.shown), std::move(input.text)), edits);
}

LoadedModel load_document(Document document, const std::vector<Edit>& edits) {
  LoadedModel loaded;
  if (!edits.empty()) loaded.as_trained = normalize(document);
  for (const auto& edit : edits) apply_edit(document.root, edit, document.path);
  loaded.model = normalize(document);
  if (!edits.empty())
    loaded.model.notes.push_back(fmt::format("{} edit(s) from --set applied before analysis", edits.size()));
  loaded.text = std::move(document.text);
  return loaded;
}

}  // namespace ropelens
