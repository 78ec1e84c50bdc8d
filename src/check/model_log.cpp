#include "ropelens/check/model_log.hpp"

#include <string_view>

#include "ropelens/log/log.hpp"
#include "ropelens/model/model_fields.hpp"

namespace ropelens {
namespace {

// One line per value that the config did not spell out.
class ProvenanceLog {
 public:
  explicit ProvenanceLog(const std::string& file) : file_(file) {}

  void note(std::string_view name, const std::string& value, const Provenance& from) const {
    if (from.origin != Origin::config) logging::info("{}: {} = {} ({})", file_, name, value, from.describe());
  }
  template <class T> void field(std::string_view name, const Field<T>& f) const {
    note(name, field_text(f.value), f.from);
  }
  template <class T> void field(std::string_view name, const std::optional<Field<T>>& f) const {
    if (f) field(name, *f);
  }

 private:
  const std::string& file_;
};

bool uses_rope(const Model& model) {
  return model.scheme == PositionScheme::rope || model.scheme == PositionScheme::rope_2d;
}

void log_fields(const ProvenanceLog& log, const Model& model) {
  for_each_field(kModelFields, model, in_log, [&](const auto& row, const auto& value) {
    if (!row.rope_only || uses_rope(model)) log.field(row.label, value);
  });
}

void log_setup(const ProvenanceLog& log, const RopeSetup& s) {
  const std::string prefix = "setup " + s.name + ": ";
  for_each_setup_field(s, in_log,
                       [&](const auto& row, const auto& value) { log.field(prefix + std::string(row.label), value); });
}

void log_schemes(const ProvenanceLog& log, const Model& model) {
  if (model.alibi) log.field("alibi_bias_max", model.alibi->bias_max);
  if (model.t5) {
    log.field("relative_attention_num_buckets", model.t5->num_buckets);
    log.field("relative_attention_max_distance", model.t5->max_distance);
  }
  if (model.nope_temperature) {
    const NopeTemperature& t = *model.nope_temperature;
    log.note("attn_temperature_tuning", field_text(t.enabled), t.enabled_from);
    log.field("floor_scale", t.floor_scale);
    log.field("attn_scale", t.attn_scale);
  }
}

}  // namespace

void log_loaded_model(const LoadedModel& loaded) {
  if (!logging::enabled(logging::Level::info)) return;
  const Model& model = loaded.model;
  logging::info("read {}: {} {}, {} layers, {} RoPE setup(s){}", model.source, model.model_type.value,
                to_string(model.scheme), model.num_layers.value, model.setups.size(),
                loaded.as_trained ? ", --set edits applied" : "");
  const ProvenanceLog log(model.source);
  log_fields(log, model);
  for (const auto& setup : model.setups) log_setup(log, setup);
  log_schemes(log, model);
  for (const auto& note : model.notes) logging::info("{}: note: {}", model.source, note);
  // The CFG rules word these; the log only says where they are.
  for (const auto& issue : model.issues)
    logging::debug("{}: config issue at {}", model.source, issue.pointer.empty() ? "(document)" : issue.pointer);
}

void log_audit_target(const FileResult& result, bool target_given) {
  logging::info("{}: audited at {} tokens ({})", result.path, result.audit.target_tokens,
                target_given ? "--target or .ropelens.json" : "default: the declared max_position_embeddings");
}

}  // namespace ropelens
