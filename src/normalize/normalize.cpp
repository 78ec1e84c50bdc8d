#include "ropelens/normalize/normalize.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "normalizing.hpp"

namespace ropelens {
using namespace normalize_detail;

namespace {

Field<std::string> read_model_type(const ConfigView& view, Issues& issues) {
  // The innermost model_type names the language model (gemma3 -> gemma3_text).
  for (const auto& scope : view.scopes()) {
    auto it = scope.object->find("model_type");
    if (it == scope.object->end()) continue;
    Hit hit{&*it, json_pointer_join(scope.pointer, "model_type")};
    if (auto s = read_string(hit, issues, "model_type")) return {*s, Provenance::at(hit.pointer)};
  }
  return {"", Provenance::by_default("no model_type in the config")};
}

void note_nesting(const ConfigView& view, Model& model) {
  if (view.scopes().size() < 2) return;
  const auto& outer = view.root();
  std::string outer_type =
      outer.contains("model_type") && outer["model_type"].is_string() ? outer["model_type"].get<std::string>() : "?";
  model.notes.push_back(
      fmt::format("language model read from {} (outer model_type '{}', inner '{}'); keys it lacks "
                  "are taken from the enclosing object",
                  view.text_pointer(), outer_type, model.model_type.value));
}

std::vector<std::string> stated_keys(const ConfigView& view) {
  std::vector<std::string> keys;
  for (const auto& scope : view.scopes())
    for (const auto& item : scope.object->items()) keys.push_back(item.key());
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  return keys;
}

std::string first_architecture(const ConfigView& view) {
  auto hit = view.find_value({"architectures"});
  if (!hit || !hit->value->is_array() || hit->value->empty() || !hit->value->front().is_string()) return "";
  return hit->value->front().get<std::string>();
}

// How the semantics were chosen: a note when something other than model_type decided, a finding when nothing did.
void record_family(const ConfigView& view, const ResolvedFamily& resolved, Model& model, Issues& issues) {
  const std::string& type = model.model_type.value;
  switch (resolved.basis) {
    case FamilyBasis::model_type:
      // A remote-code family in the table is read as the engines' model files for it read it (families.cpp cites
      // them): its semantics are known, not guessed, so no best-effort finding.
      if (!resolved.family->transformers_native)
        model.notes.push_back(
            fmt::format("model_type '{}' runs remote code (transformers has no class for it); read as the "
                        "engines' model files for it read it",
                        type));
      return;
    case FamilyBasis::architectures:
    case FamilyBasis::auto_map:
      model.notes.push_back(
          fmt::format("model_type '{}' is not a class ropelens knows; read with {} semantics from {} "
                      "'{}', the class the engines run",
                      type, resolved.family->model_type, resolved.pointer, resolved.evidence));
      return;
    case FamilyBasis::key_signature:
      model.notes.push_back(
          fmt::format("model_type '{}' is not a class ropelens knows; {} mark DeepSeek's multi-head latent "
                      "attention: read with {} semantics",
                      type, resolved.evidence, resolved.family->model_type));
      return;
    case FamilyBasis::best_effort:
      issues.add(model.model_type.from.pointer, BestEffortReading{type, first_architecture(view)});
      return;
  }
}

}  // namespace

Model normalize_json(const nlohmann::json& root, const std::string& source) {
  Model model;
  model.source = source;
  ConfigView view(root);
  Issues issues(model.issues);
  model.model_type = read_model_type(view, issues);
  model.text_pointer = view.text_pointer();
  model.config_keys = stated_keys(view);
  note_nesting(view, model);

  const ResolvedFamily resolved = resolve_family(view, model.model_type.value);
  const Family& family = *resolved.family;
  model.transformers_native = resolved.basis == FamilyBasis::model_type && family.transformers_native;
  model.read_as = std::string(family.model_type);
  record_family(view, resolved, model, issues);

  Normalizing n{view, family, model, issues, {}, {}, false};
  read_scheme(n);
  read_hybrid_scheme(n);
  read_dims(n);
  read_lengths(n);
  read_layer_schedule(n);
  read_rope_setups(n);
  read_kv_shape(n);
  read_misspelled_keys(n);
  return model;
}

Model normalize(const Document& document) {
  Model model = normalize_json(document.root, document.path);
  for (const auto& pointer : document.cut_pointers) model.issues.push_back({pointer, ValueCutForDepth{kMaxJsonDepth}});
  return model;
}

}  // namespace ropelens
