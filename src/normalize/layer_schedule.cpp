// Which layers use which attention kind and whether they rotate at all.
#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "ropelens/normalize/normalize.hpp"
#include "normalizing.hpp"

namespace ropelens::normalize_detail {
namespace {

constexpr std::string_view kFullAttentionType = "full_attention";
constexpr std::string_view kSliding = "sliding_attention";
constexpr std::string_view kChunked = "chunked_attention";
constexpr std::string_view kCrossAttention = "cross_attention";

int read_num_layers(Normalizing& n) {
  auto hit = n.view.find_value({"num_hidden_layers", "n_layer", "n_layers", "num_layers"});
  if (hit)
    if (auto value = read_integer(*hit, n.issues, "num_hidden_layers", 1, kMaxLayers)) {
      n.model.num_layers = {static_cast<int>(*value), Provenance::at(hit->pointer)};
      return n.model.num_layers.value;
    }
  n.model.num_layers = {1, Provenance::by_default("no usable layer count in the config; 1 layer assumed")};
  return 1;
}

std::optional<std::vector<std::string>> read_layer_types(Normalizing& n, int num_layers) {
  auto hit = n.view.find_value({"layer_types"});
  if (!hit) return std::nullopt;
  if (!hit->value->is_array()) {
    n.issues.add(hit->pointer, LayerScheduleMismatch{.reason = ScheduleReason::not_a_list,
                                                     .field = "layer_types",
                                                     .written = describe_json(*hit->value)});
    return std::nullopt;
  }
  std::vector<std::string> types;
  for (std::size_t i = 0; i < hit->value->size(); ++i) {
    const auto& item = (*hit->value)[i];
    if (!item.is_string()) {
      n.issues.add(
          json_pointer_join(hit->pointer, std::to_string(i)),
          LayerScheduleMismatch{
              .reason = ScheduleReason::entry_not_a_string, .field = "layer_types", .written = describe_json(item)});
      return std::nullopt;
    }
    types.push_back(item.get<std::string>());
    if (!is_known_layer_type(types.back()))
      n.issues.add(json_pointer_join(hit->pointer, std::to_string(i)),
                   LayerScheduleMismatch{
                       .reason = ScheduleReason::unknown_layer_type, .field = "layer_types", .written = types.back()});
  }
  if (static_cast<int>(types.size()) != num_layers) {
    n.issues.add(hit->pointer, LayerScheduleMismatch{.reason = ScheduleReason::wrong_entry_count,
                                                     .field = "layer_types",
                                                     .count = static_cast<std::int64_t>(types.size()),
                                                     .layers = num_layers});
    return std::nullopt;
  }
  return types;
}

// layer_rope_theta (GraniteSWAConfig and the 2026 classes that copy it), for any model_type that states it: entry i 0
// leaves layer i without RoPE (GraniteSWAModel passes it no position embeddings); the other entries are the layers'
// bases (rope_setups.cpp).
std::vector<int> read_layer_rope_theta(Normalizing& n, int num_layers) {
  auto hit = n.view.find_value({"layer_rope_theta"});
  if (!hit) return {};
  if (!hit->value->is_array()) {
    n.issues.add(hit->pointer, LayerScheduleMismatch{.reason = ScheduleReason::not_a_list,
                                                     .field = "layer_rope_theta",
                                                     .written = describe_json(*hit->value)});
    return {};
  }
  std::vector<int> uses_rope;
  for (std::size_t i = 0; i < hit->value->size(); ++i) {
    const auto& item = (*hit->value)[i];
    const std::string at = json_pointer_join(hit->pointer, std::to_string(i));
    if (!item.is_number()) {
      n.issues.add(at, wrong_entry_type("layer_rope_theta", ValueType::number, item));
      return {};
    }
    if (item.get<double>() < 0) {
      n.issues.add(at, invalid_number("layer_rope_theta", InvalidReason::negative, item.get<double>()));
      return {};
    }
    uses_rope.push_back(item.get<double>() > 0 ? 1 : 0);
  }
  if (static_cast<int>(uses_rope.size()) != num_layers) {
    n.issues.add(hit->pointer, LayerScheduleMismatch{.reason = ScheduleReason::wrong_entry_count,
                                                     .field = "layer_rope_theta",
                                                     .count = static_cast<std::int64_t>(uses_rope.size()),
                                                     .layers = num_layers});
    return {};
  }
  return uses_rope;
}

// MuseGlimmerTextConfig.__post_init__: without layer_rope_theta, every 4th layer counted back from the last is NoPE.
std::vector<int> muse_glimmer_nope(Normalizing& n, int num_layers) {
  std::vector<int> uses_rope;
  for (int i = 0; i < num_layers; ++i) uses_rope.push_back((num_layers - 1 - i) % 4 != 0 ? 1 : 0);
  n.model.notes.push_back(
      "layer_rope_theta derived: every 4th layer counted back from the last is NoPE (transformers "
      "MuseGlimmerTextConfig default)");
  return uses_rope;
}

std::vector<int> read_no_rope_layers(Normalizing& n, int num_layers) {
  if (n.view.find_value({"layer_rope_theta"})) return read_layer_rope_theta(n, num_layers);
  std::vector<int> uses_rope;
  auto hit = n.view.find_value({"no_rope_layers"});
  if (hit && hit->value->is_array() && !hit->value->empty()) {
    for (std::size_t i = 0; i < hit->value->size(); ++i) {
      const auto& item = (*hit->value)[i];
      if (!item.is_number_integer() || (item.get<long long>() != 0 && item.get<long long>() != 1)) {
        n.issues.add(
            json_pointer_join(hit->pointer, std::to_string(i)),
            LayerScheduleMismatch{
                .reason = ScheduleReason::entry_not_a_flag, .field = "no_rope_layers", .written = describe_json(item)});
        uses_rope.clear();
        break;
      }
      uses_rope.push_back(item.get<int>());
    }
    if (!uses_rope.empty() && static_cast<int>(uses_rope.size()) != num_layers) {
      n.issues.add(hit->pointer, LayerScheduleMismatch{.reason = ScheduleReason::wrong_entry_count,
                                                       .field = "no_rope_layers",
                                                       .count = static_cast<std::int64_t>(uses_rope.size()),
                                                       .layers = num_layers});
      uses_rope.clear();
    }
    if (!uses_rope.empty()) return uses_rope;
  }
  if (n.family.pattern == LayerPattern::muse_glimmer_pattern) return muse_glimmer_nope(n, num_layers);
  if (n.family.dialect != Dialect::llama4) return {};
  int interval = 4;
  std::string from = "transformers Llama4TextConfig default no_rope_layer_interval 4";
  if (auto ih = n.view.find_value({"no_rope_layer_interval"}))
    if (auto v = read_integer(*ih, n.issues, "no_rope_layer_interval", 1, kMaxLayers)) {
      interval = static_cast<int>(*v);
      from = ih->pointer;
    }
  n.model.notes.push_back(fmt::format("no_rope_layers derived: every {}th layer is NoPE ({})", interval, from));
  for (int i = 0; i < num_layers; ++i) uses_rope.push_back((i + 1) % interval != 0 ? 1 : 0);
  return uses_rope;
}

// Gemma 3's default period is 6, Exaone4Config's 4 (configuration_exaone4.py).
int sliding_window_pattern(Normalizing& n, int fallback) {
  if (auto hit = n.view.find_value({"sliding_window_pattern"}))
    if (auto v = read_integer(*hit, n.issues, "sliding_window_pattern", 1, kMaxLayers)) return static_cast<int>(*v);
  return fallback;
}

// DeepseekV4Config.__post_init__ (models/deepseek_v4/configuration_deepseek_v4.py
// @b5b741e52e24b1c394ae4a0b13df86846284a1d3): the legacy compress_ratios map 0, 4 and 128 to sliding_attention,
// compressed_sparse_attention and heavily_compressed_attention; without them, two heavily compressed layers, then
// compressed_sparse (odd) and heavily_compressed (even) in turn.
std::string deepseek_v4_type(std::int64_t ratio) {
  if (ratio == 0) return std::string(kSliding);
  if (ratio == 4) return "compressed_sparse_attention";
  if (ratio == 128) return "heavily_compressed_attention";
  return "";
}

// The published compress_ratios carry one entry more than num_hidden_layers: the multi-token-prediction layer's.
// transformers does not build it; vLLM's DeepseekV4Attention (vllm/models/deepseek_v4/nvidia/model.py @07beaed8,
// "MTP layer is not included in the compress ratio list") gives a layer past num_hidden_layers compress ratio 1, so it
// rotates on rope_theta like the sliding layers.
void note_mtp_entry(Normalizing& n, const Hit& hit, int num_layers) {
  const auto& entry = (*hit.value)[static_cast<std::size_t>(num_layers)];
  n.model.notes.push_back(fmt::format(
      "{} has {} entries for {} layers: entry {} ({}) is the MTP layer's, which transformers does not build; vLLM's "
      "DeepseekV4Attention rotates a layer past num_hidden_layers on rope_theta as a compress ratio 1 (sliding) "
      "layer{}",
      hit.pointer, hit.value->size(), num_layers, num_layers, describe_json(entry),
      entry.is_number_integer() && entry.get<std::int64_t>() != 0 ? ", not as the compressed layer the entry states"
                                                                  : ", as the entry states"));
}

std::vector<std::string> deepseek_v4_types(Normalizing& n, int num_layers) {
  n.model.notes.push_back(
      "DeepSeek-V4: the compressed layers attend to the sliding window and to compressed entries of the whole "
      "context, shown as global attention; the sliding_attention layers see only the window");
  std::vector<std::string> types;
  auto hit = n.view.find_value({"compress_ratios"});
  if (hit && hit->value->is_array() && static_cast<int>(hit->value->size()) > num_layers)
    note_mtp_entry(n, *hit, num_layers);
  if (hit && hit->value->is_array() && static_cast<int>(hit->value->size()) >= num_layers) {
    for (int i = 0; i < num_layers; ++i) {
      const auto& item = (*hit->value)[static_cast<std::size_t>(i)];
      std::string type = item.is_number_integer() ? deepseek_v4_type(item.get<std::int64_t>()) : "";
      if (type.empty()) {
        n.issues.add(json_pointer_join(hit->pointer, std::to_string(i)),
                     LayerScheduleMismatch{.reason = ScheduleReason::unknown_layer_type,
                                           .field = "compress_ratios",
                                           .written = describe_json(item)});
        type = kFullAttentionType;
      }
      types.push_back(type);
    }
    return types;
  }
  if (hit)
    n.issues.add(hit->pointer, LayerScheduleMismatch{
                                   .reason = ScheduleReason::wrong_entry_count,
                                   .field = "compress_ratios",
                                   .count = hit->value->is_array() ? static_cast<std::int64_t>(hit->value->size()) : 0,
                                   .layers = num_layers});
  for (int i = 0; i < num_layers; ++i)
    types.push_back(i < 2 || i % 2 == 0 ? "heavily_compressed_attention" : "compressed_sparse_attention");
  return types;
}

std::vector<std::string> derive_layer_types(Normalizing& n, int num_layers, const std::vector<int>& uses_rope) {
  if (n.family.pattern == LayerPattern::deepseek_v4_compression) return deepseek_v4_types(n, num_layers);
  std::vector<std::string> types(static_cast<std::size_t>(num_layers), std::string(kFullAttentionType));
  const bool has_window = n.model.sliding_window.has_value();
  for (int i = 0; i < num_layers; ++i) {
    auto& type = types[static_cast<std::size_t>(i)];
    switch (n.family.pattern) {
      case LayerPattern::all_global: break;
      case LayerPattern::all_sliding_when_window:
        if (has_window) type = kSliding;
        break;
      case LayerPattern::alternate_sliding_first:
        if ((i + 1) % 2 != 0) type = kSliding;
        break;
      case LayerPattern::gemma3_pattern:
        if ((i + 1) % sliding_window_pattern(n, 6) != 0) type = kSliding;
        break;
      case LayerPattern::exaone4_pattern:
        if (has_window && (i + 1) % sliding_window_pattern(n, 4) != 0) type = kSliding;
        break;
      case LayerPattern::olmo3_pattern:
        if ((i + 1) % 4 != 0) type = kSliding;
        break;
      case LayerPattern::qwen2_max_window: break;  // handled below
      case LayerPattern::llama4_nope:
        if (!uses_rope.empty() && uses_rope[static_cast<std::size_t>(i)] == 1) type = kChunked;
        break;
      case LayerPattern::deepseek_v4_compression: break;  // handled above
      case LayerPattern::mimo_v2_pattern:
        if (i != 0 && (i + 1) % 6 != 0) type = kSliding;
        break;
      case LayerPattern::granite_swa_pattern:
        if (i % 4 != 0) type = kSliding;
        break;
      case LayerPattern::muse_glimmer_pattern:
        if ((num_layers - 1 - i) % 4 != 0) type = kSliding;
        break;
    }
  }
  if (n.family.pattern == LayerPattern::qwen2_max_window && has_window) {
    int first_sliding = 28;
    auto hit = n.view.find_value({"max_window_layers"});
    if (hit)
      if (auto v = read_integer(*hit, n.issues, "max_window_layers", 0, kMaxLayers))
        first_sliding = static_cast<int>(*v);
    if (first_sliding > num_layers)
      n.issues.add(hit ? hit->pointer : "", LayerScheduleMismatch{.reason = ScheduleReason::window_layers_beyond_count,
                                                                  .field = "max_window_layers",
                                                                  .count = first_sliding,
                                                                  .layers = num_layers});
    for (int i = first_sliding; i < num_layers; ++i) types[static_cast<std::size_t>(i)] = kSliding;
  }
  return types;
}

// MiMo-V2's hub configs (vLLM mimo_v2.py is_compressed_softmax_layer @9aaf83ef): hybrid_layer_pattern[i] 1 is a
// sliding-window layer, 0 a full-attention one. MiMoV2FlashConfig derives the same schedule when it is absent.
std::optional<std::vector<std::string>> read_hybrid_layer_pattern(Normalizing& n, int num_layers) {
  auto hit = n.view.find_value({"hybrid_layer_pattern"});
  if (!hit) return std::nullopt;
  if (!hit->value->is_array()) {
    n.issues.add(hit->pointer, LayerScheduleMismatch{.reason = ScheduleReason::not_a_list,
                                                     .field = "hybrid_layer_pattern",
                                                     .written = describe_json(*hit->value)});
    return std::nullopt;
  }
  std::vector<std::string> types;
  for (std::size_t i = 0; i < hit->value->size(); ++i) {
    const auto& item = (*hit->value)[i];
    if (!item.is_number_integer() || (item.get<long long>() != 0 && item.get<long long>() != 1)) {
      n.issues.add(json_pointer_join(hit->pointer, std::to_string(i)),
                   LayerScheduleMismatch{.reason = ScheduleReason::entry_not_a_flag,
                                         .field = "hybrid_layer_pattern",
                                         .written = describe_json(item)});
      return std::nullopt;
    }
    types.emplace_back(item.get<long long>() == 1 ? kSliding : kFullAttentionType);
  }
  if (static_cast<int>(types.size()) != num_layers) {
    n.issues.add(hit->pointer, LayerScheduleMismatch{.reason = ScheduleReason::wrong_entry_count,
                                                     .field = "hybrid_layer_pattern",
                                                     .count = static_cast<std::int64_t>(types.size()),
                                                     .layers = num_layers});
    return std::nullopt;
  }
  return types;
}

// EXAONE 4: "We use global NoPE for hybrid attention model": Exaone4Attention rotates only when the config has no
// sliding window or the layer is a sliding one (modeling_exaone4.py).
bool exaone4_layer_rotates(const Normalizing& n, std::string_view type) {
  return !n.model.sliding_window.has_value() || type == kSliding;
}

// Llama 3.2 Vision: the layers in cross_attention_layers attend to the image and take no position embeddings
// (MllamaCrossAttentionDecoderLayer); only the self-attention layers rotate.
std::set<int> cross_attention_layers(Normalizing& n, int num_layers) {
  std::set<int> layers;
  auto hit = n.view.find_value({"cross_attention_layers"});
  if (!hit || !hit->value->is_array()) return layers;
  for (std::size_t i = 0; i < hit->value->size(); ++i) {
    const auto& item = (*hit->value)[i];
    if (!item.is_number_integer() || item.get<long long>() < 0 || item.get<long long>() >= num_layers) {
      n.issues.add(json_pointer_join(hit->pointer, std::to_string(i)),
                   LayerScheduleMismatch{.reason = ScheduleReason::layer_index_out_of_range,
                                         .field = "cross_attention_layers",
                                         .written = describe_json(item),
                                         .count = 0,
                                         .layers = num_layers});
      return {};
    }
    layers.insert(item.get<int>());
  }
  n.model.notes.push_back(fmt::format(
      "{} cross-attention layers ({}) attend to the image and take no position embeddings; the RoPE schedule "
      "counts the other {} layers",
      layers.size(), hit->pointer, num_layers - static_cast<int>(layers.size())));
  return layers;
}

AttentionKind kind_of(std::string_view type) {
  if (type == kSliding) return AttentionKind::sliding;
  if (type == kChunked) return AttentionKind::chunked;
  return AttentionKind::global;
}

}  // namespace

void read_layer_schedule(Normalizing& n) {
  Model& model = n.model;
  int num_layers = read_num_layers(n);
  if (model.scheme != PositionScheme::rope) return read_attention_only_schedule(n, num_layers);
  auto explicit_types = read_layer_types(n, num_layers);
  if (!explicit_types && n.family.dialect == Dialect::mimo_v2)
    explicit_types = read_hybrid_layer_pattern(n, num_layers);
  if (!explicit_types) explicit_types = read_hybrid_schedule(n, num_layers);
  auto uses_rope = read_no_rope_layers(n, num_layers);
  auto types = explicit_types ? *explicit_types : derive_layer_types(n, num_layers, uses_rope);
  if (n.family.dialect == Dialect::mllama)
    for (int i : cross_attention_layers(n, num_layers)) types[static_cast<std::size_t>(i)] = kCrossAttention;
  const bool global_nope = n.family.dialect == Dialect::exaone4 && model.sliding_window.has_value();
  if (global_nope)
    model.notes.push_back(fmt::format(
        "global NoPE: with sliding_window {} the full-attention layers carry no positions and only the sliding "
        "layers rotate (transformers Exaone4Attention)",
        model.sliding_window->value));

  model.layers.reserve(static_cast<std::size_t>(num_layers));
  for (int i = 0; i < num_layers; ++i) {
    Layer layer;
    layer.index = i;
    layer.layer_type = types[static_cast<std::size_t>(i)];
    layer.attention = kind_of(layer.layer_type);
    layer.attends = layer_type_attends(layer.layer_type);
    layer.uses_rope = layer.attends && (uses_rope.empty() || uses_rope[static_cast<std::size_t>(i)] == 1);
    if (global_nope && !exaone4_layer_rotates(n, layer.layer_type)) layer.uses_rope = false;
    if (layer.attention == AttentionKind::sliding) {
      if (model.sliding_window) layer.window_tokens = model.sliding_window->value;
      else layer.attention = AttentionKind::global;  // a sliding layer type without a window attends globally
    }
    if (layer.attention == AttentionKind::chunked) {
      if (model.attention_chunk_size) layer.window_tokens = model.attention_chunk_size->value;
      else layer.attention = AttentionKind::global;
    }
    model.layers.push_back(std::move(layer));
  }
}

}  // namespace ropelens::normalize_detail
