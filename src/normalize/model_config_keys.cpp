// Whether a JSON object is a model's config at all: a repository holds many config.json files (apps, tools,
// editors), and a scan must pass over them rather than report each as a broken model.
#include <algorithm>

#include "config_view.hpp"
#include "ropelens/normalize/normalize.hpp"

namespace ropelens {

const std::vector<std::string>& model_config_keys() {
  static const std::vector<std::string> keys = {
      "model_type",
      "architectures",
      "hidden_size",
      "num_attention_heads",
      "num_hidden_layers",
      "head_dim",
      "rope_theta",
      "rope_scaling",
      "rope_parameters",
      "max_position_embeddings",
      "n_positions",
      "n_ctx",
      "n_embd",
      "n_head",
      "n_layer",
      "seq_length",
      "d_model",
      "num_layers",
      "num_heads",
      "rotary_dim",
      "rotary_pct",
      "partial_rotary_factor",
      "position_embedding_type",
      "sliding_window",
      "layer_types",
      "text_config",
      "llm_config",
      "language_config",
      "thinker_config",
  };
  return keys;
}

bool is_model_config(const nlohmann::json& root) {
  if (!root.is_object()) return false;
  const normalize_detail::ConfigView view(root);
  return std::any_of(view.scopes().begin(), view.scopes().end(), [](const normalize_detail::Scope& scope) {
    return std::any_of(model_config_keys().begin(), model_config_keys().end(),
                       [&](const std::string& key) { return scope.object->contains(key); });
  });
}

}  // namespace ropelens
