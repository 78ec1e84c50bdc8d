// Ready-to-paste engine invocations for one suggestion, each the same edit as its config.json fragment: the edit
// in the two override forms engines take (transformers v5's whole rope_parameters dict, the 4.x fragment), handed
// to each engine's registry row, which writes its own invocation (src/engines/<engine>/serve.cpp).
#include <algorithm>
#include <iterator>

#include "ropelens/engines/registry.hpp"
#include "ropelens/model/text.hpp"
#include "suggesting.hpp"

namespace ropelens::suggest_detail {
namespace {

using nlohmann::ordered_json;

void put_if(ordered_json& dict, const char* key, const auto& field) {
  if (field.from.origin == Origin::config) dict[key] = field.value;
}

template <class T> void put_if(ordered_json& dict, const char* key, const std::optional<Field<T>>& field) {
  if (field) put_if(dict, key, *field);
}

// The whole RoPE dict of one setup as transformers v5 holds it: replacing rope_parameters replaces every key,
// so rope_theta and the partial rotary factor must be in it or the engine falls back to their defaults.
ordered_json rope_parameters_of(const RopeSetup& setup) {
  ordered_json dict;
  dict["rope_type"] = std::string(to_string(setup.type));
  dict["rope_theta"] = setup.rope_theta.value;
  if (setup.partial_rotary_factor.value != 1.0) dict["partial_rotary_factor"] = setup.partial_rotary_factor.value;
  if (setup.factor) dict["factor"] = setup.factor->value;
  put_if(dict, "original_max_position_embeddings", setup.original_max_position_embeddings);
  if (setup.type == RopeType::yarn) {
    put_if(dict, "beta_fast", setup.yarn.beta_fast);
    put_if(dict, "beta_slow", setup.yarn.beta_slow);
    put_if(dict, "mscale", setup.yarn.mscale);
    put_if(dict, "mscale_all_dim", setup.yarn.mscale_all_dim);
    put_if(dict, "attention_factor", setup.yarn.attention_factor);
    put_if(dict, "truncate", setup.yarn.truncate);
  }
  if (setup.type == RopeType::llama3) {
    dict["low_freq_factor"] = setup.llama3.low_freq_factor.value;
    dict["high_freq_factor"] = setup.llama3.high_freq_factor.value;
  }
  if (setup.type == RopeType::longrope) {
    dict["short_factor"] = setup.longrope.short_factor.value;
    dict["long_factor"] = setup.longrope.long_factor.value;
    put_if(dict, "attention_factor", setup.longrope.attention_factor);
  }
  if (!setup.mrope_section.empty()) dict["mrope_section"] = setup.mrope_section;
  if (setup.mrope_interleaved) dict["mrope_interleaved"] = true;
  return dict;
}

// One dict, or one per layer type when the layer types run different RoPE (Gemma 3: full and sliding).
ordered_json rope_parameters_of(const Model& model) {
  bool per_layer_type = false;
  for (const auto& setup : model.setups) per_layer_type = per_layer_type || setup.name != model.setups.front().name;
  if (!per_layer_type) return rope_parameters_of(model.setups.front());
  ordered_json by_type = ordered_json::object();
  for (const auto& setup : model.setups)
    if (!by_type.contains(setup.name)) by_type[setup.name] = rope_parameters_of(setup);
  return by_type;
}

// The dict the suggestion writes whole (/rope_scaling or /rope_parameters), when one edit does.
const Edit* rope_dict_edit(const Suggestion& suggestion) {
  for (const Edit& edit : suggestion.edits) {
    const std::string key = json_pointer_key(edit.pointer);
    if (edit.value.is_object() && (key == "rope_scaling" || key == "rope_parameters")) return &edit;
  }
  return nullptr;
}

// The suggestion's own dict, completed with what an override that replaces rope_parameters would otherwise drop
// (rope_theta, the partial rotary factor, M-RoPE's sections). Built from the edit, not from the edited model:
// a model class that reads only one rope type (Phi-3: longrope) would turn a YaRN edit into an empty longrope.
ordered_json rope_parameters_of(const Edit& edit, const RopeSetup& setup) {
  ordered_json dict;
  dict["rope_type"] = edit.value.value("rope_type", edit.value.value("type", std::string(to_string(setup.type))));
  dict["rope_theta"] = setup.rope_theta.value;
  if (setup.partial_rotary_factor.value != 1.0) dict["partial_rotary_factor"] = setup.partial_rotary_factor.value;
  for (const auto& [key, value] : edit.value.items())
    if (key != "rope_type" && key != "type") dict[key] = value;
  if (!setup.mrope_section.empty() && !dict.contains("mrope_section")) dict["mrope_section"] = setup.mrope_section;
  if (setup.mrope_interleaved && !dict.contains("mrope_interleaved")) dict["mrope_interleaved"] = true;
  return dict;
}

bool per_layer_type(const Model& model) {
  for (const auto& setup : model.setups)
    if (setup.name != model.setups.front().name) return true;
  return false;
}

// The edit as an override for an engine running transformers v5: rope_parameters whole, plus the length.
std::string v5_override(const Suggestion& suggestion, const Model& edited) {
  ordered_json override = ordered_json::object();
  const Edit* dict_edit = rope_dict_edit(suggestion);
  override[ordered_json::json_pointer(edited.text_pointer + "/rope_parameters")] =
      dict_edit && !edited.setups.empty() && !per_layer_type(edited)
          ? rope_parameters_of(*dict_edit, edited.setups.front())
          : rope_parameters_of(edited);
  const std::string length = length_pointer(edited);
  for (const auto& edit : suggestion.edits)
    if (edit.pointer == length) override[ordered_json::json_pointer(length)] = edit.value;
  return override.dump();
}

}  // namespace

RopeChange rope_change(const Plan& plan, const Suggestion& suggestion) {
  return {suggestion.method, suggestion.value, plan.target_tokens, plan.original_tokens};
}

std::vector<EngineSnippet> engine_snippets(const Plan& plan, const Suggestion& suggestion, const Model& edited,
                                           const std::vector<EngineView>& edited_views) {
  const SnippetRequest request{
      rope_change(plan, suggestion),     &edited,         &edited_views,    v5_override(suggestion, edited),
      suggestion.config_fragment.dump(), plan.deployment, plan.served_model};
  std::vector<EngineSnippet> snippets;
  for (Engine engine : plan.engines) {
    std::vector<EngineSnippet> more = engine_row(engine).snippets(request);
    std::move(more.begin(), more.end(), std::back_inserter(snippets));
  }
  return snippets;
}

}  // namespace ropelens::suggest_detail
