#include <fmt/format.h>

#include "../support.hpp"

namespace ropelens::rules {
namespace cfg006 {

static std::string describe(const LayerScheduleMismatch& m) {
  switch (m.reason) {
    case ScheduleReason::not_a_list: return fmt::format("{} must be a list, got {}", m.field, m.written);
    case ScheduleReason::entry_not_a_string: return fmt::format("layer type must be a string, got {}", m.written);
    case ScheduleReason::unknown_layer_type:
      return fmt::format(
          "unknown layer type '{}': transformers refuses to load the config (ropelens reads it as "
          "full_attention)",
          m.written);
    case ScheduleReason::entry_not_a_flag:
      return fmt::format("{} entries must be 0 or 1 ({}), got {}", m.field,
                         m.field == "hybrid_layer_pattern" ? "1 = sliding window" : "1 = uses RoPE", m.written);
    case ScheduleReason::wrong_entry_count:
      return fmt::format("{} has {} entries but num_hidden_layers is {}", m.field, m.count, m.layers);
    case ScheduleReason::layer_type_without_rope:
      return fmt::format("layer {} has type '{}' but rope_parameters has no entry for it", m.layer, m.written);
    case ScheduleReason::window_layers_beyond_count:
      return fmt::format("{} {} exceeds num_hidden_layers {}: no layer slides, although use_sliding_window is true",
                         m.field, m.count, m.layers);
    case ScheduleReason::layer_index_out_of_range:
      return fmt::format("layer index {} is not one of the {} layers{}", m.written, m.layers,
                         m.count == 1 ? " (counted from 1)" : "");
    case ScheduleReason::not_a_pattern:
      return fmt::format("{} must be a string such as \"M-M*\", got {}", m.field, m.written);
    case ScheduleReason::unknown_pattern_character:
      return fmt::format("character {} '{}' of {} is not a layer kind (M mamba, * attention, - MLP, E MoE)", m.layer,
                         m.written, m.field);
    case ScheduleReason::entry_not_an_attention_flag:
      return fmt::format("{} entries must be 1 (attention) or 0 (linear attention), got {}", m.field, m.written);
    case ScheduleReason::offset_not_below_period:
      return fmt::format("attn_layer_offset {} is not below attn_layer_period {}: no layer attends", m.count, m.layers);
  }
  return m.field + " does not match the layers";
}

static void check(const Context& cx, Sink& out) {
  for_each_issue<LayerScheduleMismatch>(cx.model, [&](const std::string& pointer, const LayerScheduleMismatch& m) {
    out.report(pointer, describe(m))
        .help("list exactly one known layer type (or 0/1 flag) per layer, num_hidden_layers entries in all");
  });
}

}  // namespace cfg006

extern const Rule CFG006{{"CFG006", "layer-schedule-mismatch", Severity::error,
                          "The per-layer schedule does not match the layer count or names an unknown layer type"},
                         &cfg006::check};

}  // namespace ropelens::rules
