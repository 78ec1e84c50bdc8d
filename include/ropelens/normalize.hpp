// Config dialects in, one Model out. What cannot be taken as written is collected in Model::issues, never thrown.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "ropelens/input.hpp"
#include "ropelens/model.hpp"

namespace ropelens {

Model normalize(const Document& document);
Model normalize_json(const nlohmann::json& root, const std::string& source);

// Limits beyond which a value is reported as impossible rather than used (no huge allocations).
constexpr int kMaxLayers = 100'000;
constexpr int kMaxHeadDim = 65'536;
constexpr std::int64_t kMaxLengthTokens = 1'000'000'000'000LL;

}  // namespace ropelens
