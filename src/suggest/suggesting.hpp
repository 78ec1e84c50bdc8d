// Internal to suggest: the shared plan, the per-method builders and the engine snippets.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ropelens/audit/audit.hpp"
#include "ropelens/check/check.hpp"
#include "ropelens/input/gguf.hpp"
#include "ropelens/input/input.hpp"
#include "ropelens/suggest/suggest.hpp"

namespace ropelens::suggest_detail {

// What every method works from: the model, the setups that need a change and the trained angles.
struct Plan {
  const Document* document = nullptr;  // read once, so "-" (stdin) works for every re-run
  const Model* model = nullptr;
  std::int64_t target_tokens = 0;
  std::int64_t original_tokens = 0;                // L_P of the first setup out of range
  std::optional<std::int64_t> requested_original;  // --original, which check takes as --trained-length
  std::string requested_original_from;             // "--trained-length", ".ropelens.json trained_length …"
  std::vector<int> setups;                         // the setups with pairs out of range at the target
  Audit trained;                                   // the config as it is, at the target: the angles seen in training
  const Deployment* deployment = nullptr;          // what check verifies each edit under
  std::vector<Engine> engines;                     // the engines whose snippets are printed
  const GgufFile* gguf = nullptr;  // a GGUF input: suggestions are llama.cpp flags, verified on its metadata
  std::string gguf_path;           // the file llama.cpp loads (an Ollama model's blob)
  std::string served_model;        // the model as engines take it, one shell word ("" when unknown)
};

// The training history every edited config is audited against, as check reads it: the config as trained,
// with --original as the pretraining length when given.
TrainingHistory verification_history(const Plan& plan);
// The check options that verify a suggestion: the same target and training history as the suggestion.
CheckOptions verification_options(const Plan& plan);
// The pairs of the planned setups that an audit still finds out of range.
std::vector<int> still_out_of_range(const Plan& plan, const Audit& edited);
// The length key the config declares (created under the language model when it has none), and the length
// a change must declare so that no engine stops short of the target and CTX202 holds.
std::string length_pointer(const Model& model);

// methods.cpp: each returns the edits, fragment and value; suggest.cpp verifies and describes them.
Suggestion yarn_change(const Plan& plan);
Suggestion linear_change(const Plan& plan);
Suggestion ntk_base_change(const Plan& plan);
Suggestion llama3_factor_change(const Plan& plan);
bool has_llama3_setup(const Plan& plan);

// The RoPE dict a setup reads (created under the language model when the config has none).
std::string dict_pointer(const Model& model, const RopeSetup& setup);

// The suggestion as engines take it at run time.
RopeChange rope_change(const Plan& plan, const Suggestion& suggestion);

// snippets.cpp: the same edits as each engine's invocation (its registry row's snippets), from the engine views of
// the edited config.
std::vector<EngineSnippet> engine_snippets(const Plan& plan, const Suggestion& suggestion, const Model& edited,
                                           const std::vector<EngineView>& edited_views);

}  // namespace ropelens::suggest_detail
