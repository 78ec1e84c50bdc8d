// Internal to diff: the normalized model as a flat list of named values, so two models compare field by field.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "ropelens/diff/diff.hpp"
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

// `options` for checking the new side: the old side (when it was read) is its history, so a declared length
// raised with the RoPE unchanged is audited at the old side's trained length.
CheckOptions with_history(const CheckOptions& options, const DiffSide& old_side);

// `gguf` is checked against `config` (the config.json it was converted from), found `where` ("the other side of the
// diff", "beside it at HEAD").
void pair_with(LoadedModel& gguf, const Model& config, std::string_view where);

}  // namespace ropelens::diff_detail
