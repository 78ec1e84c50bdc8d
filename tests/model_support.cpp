#include "model_support.hpp"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "ropelens/check/check.hpp"
#include "support.hpp"

namespace ropelens::test {

Model load(const std::string& relative, const std::vector<Edit>& edits) {
  return load_model(source_path(relative), edits).model;
}

Model qwen3_yarn4() {
  return load("testdata/configs/qwen/qwen3-8b.json",
              {{"/rope_scaling",
                nlohmann::json{{"rope_type", "yarn"}, {"factor", 4.0}, {"original_max_position_embeddings", 32768}}}});
}

std::vector<Diagnostic> findings(const std::string& config, const std::string& code,
                                 std::optional<std::int64_t> target) {
  LoadedModel loaded = load_model(source_path(config));
  CheckOptions options;
  options.target_tokens = target;
  options.selection.select = {code};
  return check_model(std::move(loaded), options).diagnostics;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

bool any_note_contains(const Model& model, const std::string& part) {
  return std::any_of(model.notes.begin(), model.notes.end(),
                     [&](const std::string& note) { return contains(note, part); });
}

std::vector<std::string> messages(const Model& model, const std::string& code) {
  LoadedModel loaded;
  loaded.model = model;
  CheckOptions options;
  options.selection.select = {code};
  std::vector<std::string> out;
  for (const auto& d : check_model(std::move(loaded), options).diagnostics)
    out.push_back(d.where.pointer + ": " + d.message);
  return out;
}

}  // namespace ropelens::test
