// The normalized model as JSON, every value beside its provenance.
#include <nlohmann/json.hpp>

#include "render/writers/json_writer.hpp"

#include "ropelens/model/model_fields.hpp"
#include "ropelens/render/render.hpp"

namespace ropelens {
namespace {

using nlohmann::json;

json provenance_json(const Provenance& from) {
  json out;
  switch (from.origin) {
    case Origin::config: out["pointer"] = from.pointer; break;
    case Origin::defaulted: out["default"] = from.note; break;
    case Origin::derived:
      out["derived"] = from.note;
      if (!from.pointer.empty()) out["pointer"] = from.pointer;
      break;
  }
  return out;
}

template <class T> json value_json(const T& value) { return json(value); }
json value_json(Pairing value) { return to_string(value); }
json value_json(PositionScheme value) { return to_string(value); }

template <class T> json field_json(const Field<T>& field) {
  return {{"value", value_json(field.value)}, {"from", provenance_json(field.from)}};
}

template <class T> json field_json(const std::optional<Field<T>>& field) {
  return field ? field_json(*field) : json(nullptr);
}

// A method's parameters sit under its name ("yarn": {…}).
json& member_for(json& out, std::string_view group) { return group.empty() ? out : out[std::string(group)]; }

json setup_json(const RopeSetup& s) {
  json out = {{"name", s.name},
              {"pointer", s.pointer},
              {"layers", s.layers},
              {"attention", to_string(s.attention)},
              {"rotary_dim", s.rotary_dim},
              {"unrotated_dims", s.head_dim.value - s.rotary_dim}};
  for_each_setup_field(s, in_json, [&](const auto& row, const auto& value) {
    member_for(out, row.group)[std::string(row.name)] = field_json(value);
  });
  if (!s.mrope_section.empty()) out["mrope"] = {{"section", s.mrope_section}, {"interleaved", s.mrope_interleaved}};
  return out;
}

json layers_json(const Model& model) {
  json out = json::array();
  for (const auto& layer : model.layers) {
    out.push_back({{"index", layer.index},
                   {"layer_type", layer.layer_type},
                   {"attention", to_string(layer.attention)},
                   {"window_tokens", layer.window_tokens ? json(*layer.window_tokens) : json(nullptr)},
                   {"attends", layer.attends},
                   {"uses_rope", layer.uses_rope},
                   {"setup", layer.setup}});
  }
  return out;
}

}  // namespace

json model_to_json(const Model& model) {
  json out = {{"source", model.source},
              {"text_pointer", model.text_pointer},
              {"transformers_native", model.transformers_native},
              {"schedule", model.schedule_summary()},
              {"layers", layers_json(model)}};
  for_each_field(kModelFields, model, in_json,
                 [&](const auto& row, const auto& value) { out[std::string(row.name)] = field_json(value); });
  if (model.reference)
    out["reference"] = {{"id", model.reference->id},
                        {"revision", model.reference->revision},
                        {"resolved", model.reference->resolved},
                        {"path", model.reference->path},
                        {"cache", model.reference->cache}};
  if (model.hybrid_schedule_from)
    out["attention_layers"] = {{"layers", model.attention_layers()},
                               {"from", provenance_json(*model.hybrid_schedule_from)}};
  if (model.weights_bytes) out["weights_bytes"] = field_json(*model.weights_bytes);
  if (model.weights_parameters) out["weights_parameters"] = field_json(*model.weights_parameters);
  if (model.checkpoint)
    out["checkpoint"] = {{"files", model.checkpoint->files}, {"tensors", model.checkpoint->tensors.size()}};
  json setups = json::array();
  for (const auto& setup : model.setups) setups.push_back(setup_json(setup));
  out["setups"] = setups;
  auto nope = model.nope_layers();
  if (!nope.empty()) out["nope"] = {{"layers", nope}};
  if (model.qk_nope_head_dim) out["mla"] = {{"qk_nope_head_dim", field_json(*model.qk_nope_head_dim)}};
  out["notes"] = model.notes;
  return out;
}

void render_inspect_json(const InspectReport& report, std::ostream& out) {
  json doc = {{"schema_version", 1}, {"semantics", kSemantics}};
  render_detail::move_members(doc, model_to_json(*report.model));
  render_detail::move_members(doc, scheme_report_json(report.schemes));
  if (report.gguf) doc["gguf"] = gguf_metadata_json(*report.gguf);
  if (report.kv_cache) doc["kv_cache"] = kv_cache_json(*report.kv_cache);
  json listed = json::array();
  for (const auto& p : report.problems)
    listed.push_back({{"code", p.code}, {"pointer", p.where.pointer}, {"message", p.message}});
  doc["problems"] = std::move(listed);
  out << render_detail::pretty_json(doc) << '\n';
}

}  // namespace ropelens
