// Internal to suggest: the shared plan, the per-method builders and the engine snippets.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ropelens/audit.hpp"
#include "ropelens/input.hpp"
#include "ropelens/suggest.hpp"

namespace ropelens::suggest_detail {

// What every method works from: the model, the setups that need a change and the trained angles.
struct Plan {
  const Document* document = nullptr;  // read once, so "-" (stdin) works for every re-run
  const Model* model = nullptr;
  std::int64_t target_tokens = 0;
  std::int64_t original_tokens = 0;
  std::vector<int> setups;  // the setups with pairs out of range at the target
  Audit trained;            // trained_length = original, no extension phase: the angles seen in training
  std::vector<Engine> engines;
};

// The training history every edited config is audited against: the config as trained, at the original length.
TrainingHistory verification_history(const Plan& plan);

// methods.cpp: each returns the edits, fragment and value; suggest.cpp verifies and describes them.
Suggestion yarn_change(const Plan& plan);
Suggestion linear_change(const Plan& plan);
Suggestion ntk_base_change(const Plan& plan);

// The RoPE dict a setup reads (created under the language model when the config has none).
std::string dict_pointer(const Model& model, const RopeSetup& setup);

// snippets.cpp
std::vector<EngineSnippet> engine_snippets(const Plan& plan, const Suggestion& suggestion,
                                           const std::vector<EngineView>& edited_views);

// The config with the edits applied, as load_model(path, edits) reads it.
Model edited_model(const Document& document, const std::vector<Edit>& edits);

// Pairs still out of range: angles needed by the edited model against the angles seen in training.
std::vector<int> still_out_of_range(const Plan& plan, const Audit& edited);

}  // namespace ropelens::suggest_detail
