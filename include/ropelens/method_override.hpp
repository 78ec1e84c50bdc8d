// Edits that replace the RoPE method a checkpoint was trained with (what ENG305 reports).
#pragma once

#include <string>
#include <vector>

#include "ropelens/model.hpp"

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
// Records them as Model::problems with code ENG305, which the ENG305 rule reports. Call after load_model
// applied --set edits, with the same file loaded without them.
void record_method_overrides(Model& edited, const Model& trained);

}  // namespace ropelens
