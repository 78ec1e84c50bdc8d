// One entry point from a path (config.json, model folder, "-", and later GGUF) to a normalized Model.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "ropelens/model.hpp"

namespace ropelens {

struct LoadedModel {
  Model model;
  std::string text;  // the source text, for line/column lookups ("" for binary inputs)
};

struct Edit {
  std::string pointer;  // RFC 6901
  nlohmann::json value;
};

// Throws InputError for files that cannot be read as a model description.
LoadedModel load_model(const std::string& path, const std::vector<Edit>& edits = {});

// Parses "POINTER=JSON" (the --set syntax); throws std::invalid_argument with a one-line reason.
Edit parse_edit(const std::string& spec);

}  // namespace ropelens
