// Hybrid models: which layers attend at all. Linear attention (Gated DeltaNet, lightning), Mamba, convolution and
// MLP-only layers have no positions, no rotary pairs and no KV cache. Every schedule a config class uses to say which
// layers attend is read here (transformers config classes, cited in docs/engines.md "Hybrid models").
#include <algorithm>
#include <array>
#include <set>

#include <fmt/format.h>

#include "ropelens/normalize/normalize.hpp"
#include "normalizing.hpp"

namespace ropelens::normalize_detail {
namespace {

constexpr std::string_view kFull = "full_attention";
constexpr std::string_view kLinear = "linear_attention";

// transformers ALLOWED_LAYER_TYPES (configuration_utils.py) that attend, and the legacy "attention".
constexpr std::array<std::string_view, 12> kAttending = {kFull,
                                                         "sliding_attention",
                                                         "chunked_attention",
                                                         "compressed_sparse_attention",
                                                         "heavily_compressed_attention",
                                                         "minimax_m3_sparse",
                                                         "sparse",
                                                         "dense",
                                                         "hybrid",
                                                         "hybrid_sliding",
                                                         "deepseek_sparse_attention",
                                                         "attention"};
// Layer types that hold no attention over the sequence: linear attention and the legacy "mamba", LFM2's "conv",
// NemotronH's "moe"/"mlp", Mllama's "cross_attention" (to the image, no positions, a cache of image tokens only).
constexpr std::array<std::string_view, 6> kNotAttending = {kLinear, "mamba", "conv", "moe", "mlp", "cross_attention"};

template <std::size_t N> bool contains(const std::array<std::string_view, N>& names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// Whether the schedule key at `hit` holds a list; records the mismatch when not.
bool is_list(Normalizing& n, const Hit& hit) {
  if (hit.value->is_array()) return true;
  n.issues.add(hit.pointer,
               LayerScheduleMismatch{
                   .reason = ScheduleReason::not_a_list, .field = hit.key(), .written = describe_json(*hit.value)});
  return false;
}

// Whether a schedule read from `hit` has `entries` for the `num_layers` layers; records the mismatch when not.
bool one_entry_per_layer(Normalizing& n, const Hit& hit, std::size_t entries, int num_layers) {
  if (static_cast<int>(entries) == num_layers) return true;
  n.issues.add(hit.pointer, LayerScheduleMismatch{.reason = ScheduleReason::wrong_entry_count,
                                                  .field = hit.key(),
                                                  .count = static_cast<std::int64_t>(entries),
                                                  .layers = num_layers});
  return false;
}

struct Schedule {
  std::vector<std::string> types;
  std::string pointer;
};

// Whole-number list entries in [0, num_layers); anything else is reported and the list ignored.
std::optional<std::set<int>> read_layer_indices(Normalizing& n, const Hit& hit, int num_layers, int base) {
  if (!is_list(n, hit)) return std::nullopt;
  std::set<int> indices;
  for (std::size_t i = 0; i < hit.value->size(); ++i) {
    const auto& item = (*hit.value)[i];
    const long long index = item.is_number_integer() ? item.get<long long>() - base : -1;
    if (index < 0 || index >= num_layers) {
      n.issues.add(json_pointer_join(hit.pointer, std::to_string(i)),
                   LayerScheduleMismatch{.reason = ScheduleReason::layer_index_out_of_range,
                                         .field = hit.key(),
                                         .written = describe_json(item),
                                         .count = base,
                                         .layers = num_layers});
      return std::nullopt;
    }
    indices.insert(static_cast<int>(index));
  }
  return indices;
}

Schedule attending_at(const std::set<int>& indices, int num_layers, std::string_view others, std::string pointer) {
  Schedule schedule{{}, std::move(pointer)};
  for (int i = 0; i < num_layers; ++i) schedule.types.emplace_back(indices.count(i) ? kFull : others);
  return schedule;
}

// A list of layer-type strings (layers_block_type), checked like layer_types.
std::optional<Schedule> read_type_list(Normalizing& n, const Hit& hit, int num_layers) {
  if (!is_list(n, hit)) return std::nullopt;
  Schedule schedule{{}, hit.pointer};
  for (std::size_t i = 0; i < hit.value->size(); ++i) {
    const auto& item = (*hit.value)[i];
    const std::string pointer = json_pointer_join(hit.pointer, std::to_string(i));
    if (!item.is_string()) {
      n.issues.add(pointer, LayerScheduleMismatch{.reason = ScheduleReason::entry_not_a_string,
                                                  .field = hit.key(),
                                                  .written = describe_json(item)});
      return std::nullopt;
    }
    schedule.types.push_back(item.get<std::string>());
    if (!is_known_layer_type(schedule.types.back()))
      n.issues.add(pointer, LayerScheduleMismatch{.reason = ScheduleReason::unknown_layer_type,
                                                  .field = hit.key(),
                                                  .written = schedule.types.back()});
  }
  if (!one_entry_per_layer(n, hit, schedule.types.size(), num_layers)) return std::nullopt;
  return schedule;
}

// NemotronH: one character per layer (NemotronHConfig._pattern_to_list).
std::optional<Schedule> read_override_pattern(Normalizing& n, const Hit& hit, int num_layers) {
  if (!hit.value->is_string()) {
    n.issues.add(hit.pointer, LayerScheduleMismatch{.reason = ScheduleReason::not_a_pattern,
                                                    .field = hit.key(),
                                                    .written = describe_json(*hit.value)});
    return std::nullopt;
  }
  const std::string pattern = hit.value->get<std::string>();
  Schedule schedule{{}, hit.pointer};
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    switch (pattern[i]) {
      case 'M': schedule.types.emplace_back(kLinear); break;
      case '*': schedule.types.emplace_back(kFull); break;
      case '-': schedule.types.emplace_back("mlp"); break;
      case 'E': schedule.types.emplace_back("moe"); break;
      default:
        n.issues.add(hit.pointer, LayerScheduleMismatch{.reason = ScheduleReason::unknown_pattern_character,
                                                        .field = hit.key(),
                                                        .written = std::string(1, pattern[i]),
                                                        .layer = static_cast<int>(i)});
        return std::nullopt;
    }
  }
  if (!one_entry_per_layer(n, hit, schedule.types.size(), num_layers)) return std::nullopt;
  return schedule;
}

// MiniMax remote code: 1 = softmax attention, 0 = lightning (linear) attention, as vLLM counts them.
std::optional<Schedule> read_attn_type_list(Normalizing& n, const Hit& hit, int num_layers) {
  if (!is_list(n, hit)) return std::nullopt;
  if (!one_entry_per_layer(n, hit, hit.value->size(), num_layers)) return std::nullopt;
  std::set<int> attending;
  for (std::size_t i = 0; i < hit.value->size(); ++i) {
    const auto& item = (*hit.value)[i];
    if (!item.is_number_integer() || (item.get<long long>() != 0 && item.get<long long>() != 1)) {
      n.issues.add(json_pointer_join(hit.pointer, std::to_string(i)),
                   LayerScheduleMismatch{.reason = ScheduleReason::entry_not_an_attention_flag,
                                         .field = hit.key(),
                                         .written = describe_json(item)});
      return std::nullopt;
    }
    if (item.get<long long>() == 1) attending.insert(static_cast<int>(i));
  }
  return attending_at(attending, num_layers, kLinear, hit.pointer);
}

// Qwen3-Next: every interval-th layer attends (Qwen3NextConfig, default interval 4).
std::optional<Schedule> read_full_attention_interval(Normalizing& n, int num_layers) {
  auto hit = n.view.find_value({"full_attention_interval"});
  int interval = 4;
  std::string pointer;
  if (hit) {
    auto value = read_integer(*hit, n.issues, "full_attention_interval", 1, kMaxLayers);
    if (!value) return std::nullopt;
    interval = static_cast<int>(*value);
    pointer = hit->pointer;
  } else if (n.model.model_type.value == "qwen3_next") {
    n.model.notes.push_back(
        "full_attention_interval derived: every 4th layer attends, the others are linear attention "
        "(transformers Qwen3NextConfig default 4)");
  } else {
    return std::nullopt;
  }
  std::set<int> attending;
  for (int i = interval - 1; i < num_layers; i += interval) attending.insert(i);
  return attending_at(attending, num_layers, kLinear, pointer);
}

// Jamba: layer i attends when i % period == offset (defaults 8 and 4). Zamba counts from the fourth layer, after two
// Mamba layers and one hybrid layer (defaults 6 and 4).
std::optional<Schedule> read_attention_period(Normalizing& n, int num_layers) {
  const std::string& type = n.model.model_type.value;
  const bool zamba = type == "zamba";
  auto period_hit = n.view.find_value({"attn_layer_period"});
  auto offset_hit = n.view.find_value({"attn_layer_offset"});
  if (!period_hit && !offset_hit && type != "jamba" && !zamba) return std::nullopt;
  std::int64_t period = zamba ? 6 : 8;
  std::int64_t offset = 4;
  if (period_hit)
    if (auto v = read_integer(*period_hit, n.issues, "attn_layer_period", 1, kMaxLayers)) period = *v;
  if (offset_hit)
    if (auto v = read_integer(*offset_hit, n.issues, "attn_layer_offset", 0, kMaxLayers)) offset = *v;
  if (offset >= period) {
    n.issues.add(offset_hit ? offset_hit->pointer : "",
                 LayerScheduleMismatch{.reason = ScheduleReason::offset_not_below_period,
                                       .field = "attn_layer_offset",
                                       .count = offset,
                                       .layers = static_cast<int>(period)});
    return std::nullopt;
  }
  Schedule schedule{{}, period_hit ? period_hit->pointer : offset_hit ? offset_hit->pointer : ""};
  const int first = zamba ? std::min(3, num_layers) : 0;
  if (zamba) schedule.types = {"mamba", "mamba", "hybrid"};
  schedule.types.resize(static_cast<std::size_t>(first));
  for (int i = 0; i < num_layers - first; ++i)
    schedule.types.emplace_back(i % period == offset ? (zamba ? "hybrid" : kFull) : "mamba");
  if (!period_hit || !offset_hit)
    n.model.notes.push_back(
        fmt::format("attention layers derived from attn_layer_period {} and attn_layer_offset {} "
                    "(transformers {} defaults for what the config omits)",
                    period, offset, zamba ? "ZambaConfig" : "JambaConfig"));
  return schedule;
}

// Kimi-Linear: linear_attn_config.kda_layers counts from 1; every other layer is full (MLA) attention.
std::optional<Schedule> read_kda_layers(Normalizing& n, int num_layers) {
  auto config = n.view.find_value({"linear_attn_config"});
  if (!config || !config->value->is_object() || !config->value->contains("kda_layers")) return std::nullopt;
  Hit hit{&(*config->value)["kda_layers"], json_pointer_join(config->pointer, "kda_layers")};
  auto linear = read_layer_indices(n, hit, num_layers, 1);
  if (!linear) return std::nullopt;
  std::set<int> attending;
  for (int i = 0; i < num_layers; ++i)
    if (!linear->count(i)) attending.insert(i);
  return attending_at(attending, num_layers, kLinear, hit.pointer);
}

// DeciLM (Llama-Nemotron, remote code): one block config per layer; an attention that is a no_op (or replaced by a
// linear layer) leaves an FFN-only layer (vLLM nemotron_nas.py, DeciLMDecoderLayer._is_no_op_attention).
std::optional<Schedule> read_block_configs(Normalizing& n, const Hit& hit, int num_layers) {
  if (!is_list(n, hit)) return std::nullopt;
  if (!one_entry_per_layer(n, hit, hit.value->size(), num_layers)) return std::nullopt;
  std::set<int> attending;
  for (std::size_t i = 0; i < hit.value->size(); ++i) {
    const auto& block = (*hit.value)[i];
    const auto* attention = block.is_object() && block.contains("attention") ? &block["attention"] : nullptr;
    const auto flag = [&](const char* key) {
      return attention && attention->is_object() && attention->contains(key) && (*attention)[key].is_boolean() &&
             (*attention)[key].get<bool>();
    };
    if (!flag("no_op") && !flag("replace_with_linear")) attending.insert(static_cast<int>(i));
  }
  if (static_cast<int>(attending.size()) < num_layers)
    n.model.notes.push_back(
        fmt::format("{} of {} block_configs have no attention (attention.no_op); the schedule "
                    "counts the {} attention layers",
                    num_layers - static_cast<int>(attending.size()), num_layers, attending.size()));
  return attending_at(attending, num_layers, "mlp", hit.pointer);
}

std::optional<Schedule> read_schedule(Normalizing& n, int num_layers) {
  if (auto hit = n.view.find_value({"block_configs"})) return read_block_configs(n, *hit, num_layers);
  if (auto hit = n.view.find_value({"layers_block_type"})) return read_type_list(n, *hit, num_layers);
  if (auto hit = n.view.find_value({"hybrid_override_pattern"})) return read_override_pattern(n, *hit, num_layers);
  if (auto hit = n.view.find_value({"attn_type_list"})) return read_attn_type_list(n, *hit, num_layers);
  if (auto hit = n.view.find_value({"attn_layer_indices"})) {  // Bamba
    auto indices = read_layer_indices(n, *hit, num_layers, 0);
    return indices ? std::optional(attending_at(*indices, num_layers, "mamba", hit->pointer)) : std::nullopt;
  }
  if (auto hit = n.view.find_value({"full_attn_idxs"})) {  // LFM2 before layer_types
    auto indices = read_layer_indices(n, *hit, num_layers, 0);
    return indices ? std::optional(attending_at(*indices, num_layers, "conv", hit->pointer)) : std::nullopt;
  }
  if (auto schedule = read_kda_layers(n, num_layers)) return schedule;
  if (auto schedule = read_attention_period(n, num_layers)) return schedule;
  return read_full_attention_interval(n, num_layers);
}

// NemotronH derives its layer count from the pattern (NemotronHConfig.num_hidden_layers is len(layers_block_type)).
int pattern_layer_count(Normalizing& n, int num_layers) {
  if (n.model.model_type.value != "nemotron_h") return num_layers;
  std::size_t count = 0;
  std::string pointer;
  if (auto hit = n.view.find_value({"layers_block_type"}); hit && hit->value->is_array()) {
    count = hit->value->size();
    pointer = hit->pointer;
  } else if (auto pattern = n.view.find_value({"hybrid_override_pattern"}); pattern && pattern->value->is_string()) {
    count = pattern->value->get<std::string>().size();
    pointer = pattern->pointer;
  }
  if (count == 0 || static_cast<int>(count) == num_layers || count > static_cast<std::size_t>(kMaxLayers))
    return num_layers;
  n.model.notes.push_back(fmt::format("num_hidden_layers {} is ignored: NemotronHConfig counts the {} entries of {}",
                                      num_layers, count, pointer));
  n.model.num_layers = {static_cast<int>(count),
                        Provenance::derived(fmt::format("length of {}", json_pointer_key(pointer)), pointer)};
  return static_cast<int>(count);
}

}  // namespace

bool is_known_layer_type(std::string_view type) { return contains(kAttending, type) || contains(kNotAttending, type); }

bool layer_type_attends(std::string_view type) { return !contains(kNotAttending, type); }

std::optional<std::vector<std::string>> read_hybrid_schedule(Normalizing& n, int& num_layers) {
  num_layers = pattern_layer_count(n, num_layers);
  auto schedule = read_schedule(n, num_layers);
  if (!schedule) return std::nullopt;
  n.model.hybrid_schedule_from = schedule->pointer.empty()
                                     ? Provenance::by_default(fmt::format("{} class default", n.model.model_type.value))
                                     : Provenance::at(schedule->pointer);
  return std::move(schedule->types);
}

void read_hybrid_scheme(Normalizing& n) {
  const std::string& type = n.model.model_type.value;
  if (type == "jamba" || type == "nemotron_h" || type == "zamba") {
    n.model.scheme_from = Provenance::by_default(fmt::format(
        "model_type '{}': its attention layers carry no positions (the transformers config class has no RoPE settings)",
        type));
  } else if (type == "zamba2") {
    auto hit = n.view.find_value({"use_mem_rope"});
    if (hit && hit->value->is_boolean() && hit->value->get<bool>()) return;
    n.model.scheme = PositionScheme::none;
    n.model.scheme_from = hit ? Provenance::at(hit->pointer)
                              : Provenance::by_default("transformers Zamba2Config default use_mem_rope false");
  } else if (type == "granitemoehybrid") {
    auto hit = n.view.find_value({"position_embedding_type"});
    if (hit && hit->value->is_string() && hit->value->get<std::string>() == "rope") return;
    n.model.scheme = PositionScheme::none;
    n.model.scheme_from = hit ? Provenance::at(hit->pointer)
                              : Provenance::by_default(
                                    "transformers GraniteMoeHybridConfig: rope only when "
                                    "position_embedding_type is \"rope\"");
  }
}

void read_attention_only_schedule(Normalizing& n, int num_layers) {
  auto types = read_hybrid_schedule(n, num_layers);
  if (!types) return;
  for (int i = 0; i < num_layers; ++i) {
    Layer layer;
    layer.index = i;
    layer.layer_type = (*types)[static_cast<std::size_t>(i)];
    layer.attends = layer_type_attends(layer.layer_type);
    layer.uses_rope = false;
    n.model.layers.push_back(std::move(layer));
  }
}

}  // namespace ropelens::normalize_detail
