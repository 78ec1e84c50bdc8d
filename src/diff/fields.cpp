#include <cmath>

#include "diffing.hpp"
#include "ropelens/model/text.hpp"

namespace ropelens::diff_detail {
namespace {

constexpr double kSameValueRelative = 1e-6;  // float32 keeps 7 significant digits

class FieldList {
 public:
  explicit FieldList(std::vector<NamedValue>& out) : out_(out) {}
  FieldList within(std::string setup) const {
    FieldList scoped(out_);
    scoped.setup_ = std::move(setup);
    return scoped;
  }
  template <class T> void add(const std::string& field, const Field<T>& value) const {
    out_.push_back({setup_, field, nlohmann::json(value.value), value.from});
  }
  template <class T> void add(const std::string& field, const std::optional<Field<T>>& value) const {
    if (value) add(field, *value);
  }
  void add_plain(const std::string& field, nlohmann::json value, Provenance from = {}) const {
    out_.push_back({setup_, field, std::move(value), std::move(from)});
  }

 private:
  std::vector<NamedValue>& out_;
  std::string setup_;
};

void add_method_parameters(const RopeSetup& setup, const FieldList& list) {
  switch (setup.type) {
    case RopeType::yarn:
      list.add("yarn.beta_fast", setup.yarn.beta_fast);
      list.add("yarn.beta_slow", setup.yarn.beta_slow);
      list.add("yarn.mscale", setup.yarn.mscale);
      list.add("yarn.mscale_all_dim", setup.yarn.mscale_all_dim);
      list.add("yarn.attention_factor", setup.yarn.attention_factor);
      list.add("yarn.truncate", setup.yarn.truncate);
      break;
    case RopeType::longrope:
      list.add("longrope.short_factor", setup.longrope.short_factor);
      list.add("longrope.long_factor", setup.longrope.long_factor);
      list.add("longrope.attention_factor", setup.longrope.attention_factor);
      break;
    case RopeType::llama3:
      list.add("llama3.low_freq_factor", setup.llama3.low_freq_factor);
      list.add("llama3.high_freq_factor", setup.llama3.high_freq_factor);
      break;
    default: break;
  }
}

void add_setup(const RopeSetup& setup, const FieldList& list) {
  list.add_plain("layers", index_ranges(setup.layers));
  list.add_plain("attention", std::string(to_string(setup.attention)));
  list.add("window_tokens", setup.window_tokens);
  list.add("rope_type", setup.rope_type_name);
  list.add("rope_theta", setup.rope_theta);
  list.add("head_dim", setup.head_dim);
  list.add("partial_rotary_factor", setup.partial_rotary_factor);
  list.add_plain("rotary_dim", setup.rotary_dim, Provenance::derived("int(head_dim * partial_rotary_factor)"));
  list.add("factor", setup.factor);
  list.add("max_position_embeddings", setup.max_position_embeddings);
  list.add("original_max_position_embeddings", setup.original_max_position_embeddings);
  if (!setup.mrope_section.empty()) list.add_plain("mrope_section", setup.mrope_section);
  add_method_parameters(setup, list);
}

}  // namespace

std::vector<NamedValue> normalized_fields(const Model& model) {
  std::vector<NamedValue> out;
  FieldList list(out);
  list.add("model_type", model.model_type);
  list.add_plain("scheme", std::string(to_string(model.scheme)), model.scheme_from);
  list.add_plain("pairing", std::string(to_string(model.pairing.value)), model.pairing.from);
  list.add("num_layers", model.num_layers);
  list.add("num_attention_heads", model.num_attention_heads);
  list.add("max_position_embeddings", model.max_position_embeddings);
  list.add("original_max_position_embeddings", model.original_max_position_embeddings);
  list.add("sliding_window", model.sliding_window);
  list.add("attention_chunk_size", model.attention_chunk_size);
  list.add("qk_nope_head_dim", model.qk_nope_head_dim);
  list.add_plain("layer_schedule", model.schedule_summary());
  for (const auto& setup : model.setups) add_setup(setup, list.within(setup.name));
  return out;
}

bool same_value(const nlohmann::json& a, const nlohmann::json& b) {
  if (a.is_number() && b.is_number()) {
    const double x = a.get<double>(), y = b.get<double>();
    return x == y || std::abs(x - y) <= kSameValueRelative * std::max(std::abs(x), std::abs(y));
  }
  if (a.is_array() && b.is_array()) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
      if (!same_value(a[i], b[i])) return false;
    return true;
  }
  return a == b;
}

}  // namespace ropelens::diff_detail
