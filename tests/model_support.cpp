#include "model_support.hpp"

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

}  // namespace ropelens::test
