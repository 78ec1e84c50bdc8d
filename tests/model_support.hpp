// Shared test helpers that need the library: loading testdata configs and running single rules on them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ropelens/model/diagnostic.hpp"
#include "ropelens/model/model.hpp"
#include "ropelens/load/model_loader.hpp"

namespace ropelens::test {

// A config under testdata/, normalized after the given --set edits.
Model load(const std::string& relative, const std::vector<Edit>& edits = {});
// Qwen3-8B with yarn factor 4 over original_max_position_embeddings 32768.
Model qwen3_yarn4();
// The findings of one rule (only `code` selected) for a config under testdata/ at a target (default: declared).
std::vector<Diagnostic> findings(const std::string& config, const std::string& code,
                                 std::optional<std::int64_t> target = std::nullopt);

bool contains(const std::string& text, const std::string& part);
// Whether any of the model's reading notes contains `part`.
bool any_note_contains(const Model& model, const std::string& part);
// "pointer: message" of each finding one rule (`code` selected alone) gives on the model.
std::vector<std::string> messages(const Model& model, const std::string& code);

}  // namespace ropelens::test
