// Edits that replace the RoPE method a checkpoint was trained with (what ENG305 reports).
#pragma once

#include <string>
#include <vector>

#include "ropelens/model/model.hpp"

namespace ropelens {

struct MethodOverride {
  int setup = 0;
  std::string pointer;  // the RoPE dict the override wrote
  RopeType trained = RopeType::default_rope;
  RopeType applied = RopeType::default_rope;
  double trained_factor = 1.0;
  double applied_factor = 1.0;
};

// Setups whose RoPE method differs between the config as trained and the config with --set edits applied.
std::vector<MethodOverride> find_method_overrides(const Model& trained, const Model& edited);

}  // namespace ropelens
