// Internal to diff: the normalized model as a flat list of named values, so two models compare field by field.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ropelens/model/model.hpp"

namespace ropelens::diff_detail {

struct NamedValue {
  std::string setup;  // "" for model-wide values
  std::string field;
  nlohmann::json value;
  Provenance from;
};

// Every value the normalizer resolved that shapes positions: model-wide lengths and layout, then per RoPE
// setup its method, base, dimensions and the parameters of the method it runs.
std::vector<NamedValue> normalized_fields(const Model& model);

// Equal values, numbers within float32 rounding (a config compared with a GGUF file made from it stores
// float32 copies of its floats).
bool same_value(const nlohmann::json& a, const nlohmann::json& b);

}  // namespace ropelens::diff_detail
