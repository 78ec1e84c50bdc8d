#include "model_settings.hpp"

#include <fmt/format.h>

#include "ropelens/model/text.hpp"
#include "ropelens/model/units.hpp"

namespace ropelens::render_detail {
namespace {

template <class T> std::string show(const T& value) { return fmt::format("{}", value); }

}  // namespace

std::vector<SettingRow> model_settings(const Model& model) {
  std::vector<SettingRow> rows;
  rows.push_back({"model_type",
                  fmt::format("{}{}", model.model_type.value, model.transformers_native ? "" : " (remote code)"),
                  model.model_type.from});
  if (!model.text_pointer.empty())
    rows.push_back({"language model", model.text_pointer, Provenance::at(model.text_pointer)});
  rows.push_back({"positional scheme", std::string(to_string(model.scheme)), model.scheme_from});
  if (model.scheme == PositionScheme::rope || model.scheme == PositionScheme::rope_2d)
    rows.push_back({"pairing", std::string(to_string(model.pairing.value)), model.pairing.from});
  rows.push_back({"num_layers", show(model.num_layers.value), model.num_layers.from});
  rows.push_back(
      {"max_position_embeddings", show(model.max_position_embeddings.value), model.max_position_embeddings.from});
  if (model.original_max_position_embeddings)
    rows.push_back({"original_max_position_embeddings", show(model.original_max_position_embeddings->value),
                    model.original_max_position_embeddings->from});
  if (model.sliding_window)
    rows.push_back({"sliding_window", show(model.sliding_window->value), model.sliding_window->from});
  if (model.attention_chunk_size)
    rows.push_back({"attention_chunk_size", show(model.attention_chunk_size->value), model.attention_chunk_size->from});
  if (model.qk_nope_head_dim)
    rows.push_back(
        {"qk_nope_head_dim (no position)", show(model.qk_nope_head_dim->value), model.qk_nope_head_dim->from});
  if (model.weights_bytes)
    rows.push_back({"weights",
                    fmt::format("{} bytes ({})", group_thousands(model.weights_bytes->value),
                                format_bytes(static_cast<std::int64_t>(model.weights_bytes->value))),
                    model.weights_bytes->from});
  if (model.weights_parameters)
    rows.push_back({"parameters", group_thousands(model.weights_parameters->value), model.weights_parameters->from});
  return rows;
}

std::vector<SettingRow> setup_settings(const RopeSetup& s) {
  std::vector<SettingRow> rows;
  const auto add = [&](const char* name, std::string value, const Provenance& from) {
    rows.push_back({name, std::move(value), from});
  };
  add("rope_type", s.rope_type_name.value, s.rope_type_name.from);
  add("rope_theta", show(s.rope_theta.value), s.rope_theta.from);
  add("head_dim", show(s.head_dim.value), s.head_dim.from);
  add("partial_rotary_factor", show(s.partial_rotary_factor.value), s.partial_rotary_factor.from);
  add("rotary_dim",
      fmt::format(
          "{} ({} pairs{})", s.rotary_dim, s.rotary_dim / 2,
          s.head_dim.value > s.rotary_dim ? fmt::format(", {} dims unrotated", s.head_dim.value - s.rotary_dim) : ""),
      Provenance::derived("int(head_dim x partial_rotary_factor)"));
  add("max_position_embeddings", show(s.max_position_embeddings.value), s.max_position_embeddings.from);
  if (s.original_max_position_embeddings)
    add("original_max_position_embeddings", show(s.original_max_position_embeddings->value),
        s.original_max_position_embeddings->from);
  if (s.factor) add("factor", show(s.factor->value), s.factor->from);
  if (s.type == RopeType::yarn) {
    add("beta_fast", show(s.yarn.beta_fast.value), s.yarn.beta_fast.from);
    add("beta_slow", show(s.yarn.beta_slow.value), s.yarn.beta_slow.from);
    if (s.yarn.mscale) add("mscale", show(s.yarn.mscale->value), s.yarn.mscale->from);
    if (s.yarn.mscale_all_dim) add("mscale_all_dim", show(s.yarn.mscale_all_dim->value), s.yarn.mscale_all_dim->from);
    if (s.yarn.attention_factor)
      add("attention_factor", show(s.yarn.attention_factor->value), s.yarn.attention_factor->from);
    add("truncate", s.yarn.truncate.value ? "true" : "false", s.yarn.truncate.from);
  }
  if (s.type == RopeType::longrope) {
    add("short_factor", fmt::format("{} values", s.longrope.short_factor.value.size()), s.longrope.short_factor.from);
    add("long_factor", fmt::format("{} values", s.longrope.long_factor.value.size()), s.longrope.long_factor.from);
    if (s.longrope.attention_factor)
      add("attention_factor", show(s.longrope.attention_factor->value), s.longrope.attention_factor->from);
  }
  if (s.type == RopeType::llama3) {
    add("low_freq_factor", show(s.llama3.low_freq_factor.value), s.llama3.low_freq_factor.from);
    add("high_freq_factor", show(s.llama3.high_freq_factor.value), s.llama3.high_freq_factor.from);
  }
  if (!s.mrope_section.empty())
    add("mrope_section",
        fmt::format("[{}]{}", fmt::join(s.mrope_section, ", "), s.mrope_interleaved ? " interleaved" : ""),
        Provenance::at(s.pointer + "/mrope_section"));
  if (s.window_tokens) add("window_tokens", show(s.window_tokens->value), s.window_tokens->from);
  return rows;
}

}  // namespace ropelens::render_detail
