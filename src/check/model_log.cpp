#include "ropelens/check/model_log.hpp"

#include <string_view>

#include "ropelens/log/log.hpp"

namespace ropelens {
namespace {

std::string show(const std::string& value) { return value; }
std::string show(Pairing value) { return std::string(to_string(value)); }
std::string show(bool value) { return value ? "true" : "false"; }
std::string show(const std::vector<double>& values) { return fmt::format("{} values", values.size()); }
template <class T> std::string show(const T& value) { return fmt::format("{}", value); }

// One line per value that the config did not spell out.
class ProvenanceLog {
 public:
  explicit ProvenanceLog(const std::string& file) : file_(file) {}

  void note(std::string_view name, const std::string& value, const Provenance& from) const {
    if (from.origin != Origin::config) logging::info("{}: {} = {} ({})", file_, name, value, from.describe());
  }
  template <class T> void field(std::string_view name, const Field<T>& f) const { note(name, show(f.value), f.from); }
  template <class T> void field(std::string_view name, const std::optional<Field<T>>& f) const {
    if (f) field(name, *f);
  }

 private:
  const std::string& file_;
};

void log_setup(const ProvenanceLog& log, const RopeSetup& s) {
  const std::string prefix = "setup " + s.name + ": ";
  auto field = [&](std::string_view name, const auto& f) { log.field(prefix + std::string(name), f); };
  field("rope_type", s.rope_type_name);
  field("rope_theta", s.rope_theta);
  field("head_dim", s.head_dim);
  field("partial_rotary_factor", s.partial_rotary_factor);
  field("factor", s.factor);
  field("max_position_embeddings", s.max_position_embeddings);
  field("original_max_position_embeddings", s.original_max_position_embeddings);
  field("window_tokens", s.window_tokens);
  if (s.type == RopeType::yarn) {
    field("beta_fast", s.yarn.beta_fast);
    field("beta_slow", s.yarn.beta_slow);
    field("mscale", s.yarn.mscale);
    field("mscale_all_dim", s.yarn.mscale_all_dim);
    field("attention_factor", s.yarn.attention_factor);
    field("truncate", s.yarn.truncate);
  }
  if (s.type == RopeType::longrope) {
    field("short_factor", s.longrope.short_factor);
    field("long_factor", s.longrope.long_factor);
    field("attention_factor", s.longrope.attention_factor);
  }
  if (s.type == RopeType::llama3) {
    field("low_freq_factor", s.llama3.low_freq_factor);
    field("high_freq_factor", s.llama3.high_freq_factor);
  }
}

void log_schemes(const ProvenanceLog& log, const Model& model) {
  if (model.alibi) log.field("alibi_bias_max", model.alibi->bias_max);
  if (model.t5) {
    log.field("relative_attention_num_buckets", model.t5->num_buckets);
    log.field("relative_attention_max_distance", model.t5->max_distance);
  }
  if (model.nope_temperature) {
    const NopeTemperature& t = *model.nope_temperature;
    log.note("attn_temperature_tuning", show(t.enabled), t.enabled_from);
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
  log.note("positional scheme", std::string(to_string(model.scheme)), model.scheme_from);
  log.field("model_type", model.model_type);
  if (!model.setups.empty()) log.field("pairing", model.pairing);  // which dimensions pair up only matters to RoPE
  log.field("num_layers", model.num_layers);
  log.field("num_attention_heads", model.num_attention_heads);
  log.field("max_position_embeddings", model.max_position_embeddings);
  log.field("original_max_position_embeddings", model.original_max_position_embeddings);
  log.field("sliding_window", model.sliding_window);
  log.field("attention_chunk_size", model.attention_chunk_size);
  log.field("qk_nope_head_dim", model.qk_nope_head_dim);
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
