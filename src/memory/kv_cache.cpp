// KV-cache memory: what every layer caches per token, and the window-aware cache (the least any engine keeps):
// sliding and chunked layers hold at most their window, NoPE and global layers every token, layers without attention
// nothing, layers that share another layer's KV nothing more, and MLA layers their latent.
#include "ropelens/memory/kv_cache.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <tuple>

#include <fmt/format.h>

#include "ropelens/memory/kv_layers.hpp"

namespace ropelens {
namespace {

struct KvDtypeTraits {
  KvDtype dtype;
  std::string_view name;
  std::uint64_t block_values;
  std::uint64_t block_bytes;
};

constexpr std::array<KvDtypeTraits, 6> kKvDtypes{{
    {KvDtype::f32, "f32", 1, 4},
    {KvDtype::bf16, "bf16", 1, 2},
    {KvDtype::f16, "f16", 1, 2},
    {KvDtype::fp8, "fp8", 1, 1},
    {KvDtype::q8_0, "q8_0", 32, 34},  // ggml block_q8_0: a half scale + 32 int8
    {KvDtype::q4_0, "q4_0", 32, 18},  // ggml block_q4_0: a half scale + 16 bytes of nibbles
}};

const KvDtypeTraits& traits(KvDtype dtype) {
  for (const auto& t : kKvDtypes)
    if (t.dtype == dtype) return t;
  return kKvDtypes[1];
}

// torch dtype names as configs write them.
std::optional<KvDtype> from_torch_dtype(std::string_view name) {
  static const std::map<std::string_view, KvDtype, std::less<>> names = {
      {"bfloat16", KvDtype::bf16}, {"float16", KvDtype::f16}, {"half", KvDtype::f16},  {"float32", KvDtype::f32},
      {"float", KvDtype::f32},     {"f16", KvDtype::f16},     {"bf16", KvDtype::bf16}, {"f32", KvDtype::f32},
  };
  auto it = names.find(name);
  return it == names.end() ? std::nullopt : std::optional(it->second);
}

}  // namespace

std::string_view to_string(KvDtype dtype) { return traits(dtype).name; }

std::optional<KvDtype> parse_kv_dtype(std::string_view name) {
  for (const auto& t : kKvDtypes)
    if (t.name == name) return t.dtype;
  return std::nullopt;
}

std::uint64_t kv_bytes(KvDtype dtype, std::uint64_t values) {
  const KvDtypeTraits& t = traits(dtype);
  return (values + t.block_values - 1) / t.block_values * t.block_bytes;
}

double bytes_per_element(KvDtype dtype) {
  const KvDtypeTraits& t = traits(dtype);
  return static_cast<double>(t.block_bytes) / static_cast<double>(t.block_values);
}

KvDtypeChoice default_kv_dtype(const Model& model) {
  if (const auto& written = model.kv.dtype) {
    if (auto dtype = from_torch_dtype(written->value)) return {*dtype, written->from};
    return {KvDtype::bf16, Provenance::by_default(fmt::format("bf16: {} '{}' is not a cache dtype",
                                                              written->from.describe(), written->value))};
  }
  return {KvDtype::bf16, Provenance::by_default("bf16: the config names no torch_dtype")};
}

namespace kv_detail {

std::int64_t round_up(std::int64_t value, std::int64_t multiple) {
  return (value + multiple - 1) / multiple * multiple;
}

LayerTokens keeps_nothing(const CachingLayer& layer, std::string_view state) {
  if (layer.caching == LayerCaching::shares_kv)
    return {0, {}, fmt::format("reuses the KV of layer {}", layer.kv_source)};
  return {0, {}, std::string(state)};
}

KvCacheView make_view(std::string summary, const std::vector<CachingLayer>& layers,
                      const std::vector<LayerTokens>& kept, KvDtype dtype) {
  KvCacheView view{"", std::move(summary), {}, 0, {}};
  std::map<std::tuple<std::string, std::int64_t, std::int64_t, std::int64_t, std::string>, std::size_t> index_of;
  for (std::size_t i = 0; i < layers.size(); ++i) {
    const LayerTokens& k = kept[i];
    const auto key = std::make_tuple(layers[i].group, k.tokens, k.row.k, k.row.v, k.holds);
    auto [it, added] = index_of.emplace(key, view.groups.size());
    if (added) view.groups.push_back({layers[i].group, {}, k.tokens, k.row, 0, k.holds});
    KvGroup& group = view.groups[it->second];
    group.layers.push_back(layers[i].index);
    const std::uint64_t layer_bytes =
        static_cast<std::uint64_t>(k.tokens) *
        (kv_bytes(dtype, static_cast<std::uint64_t>(k.row.k)) + kv_bytes(dtype, static_cast<std::uint64_t>(k.row.v)));
    group.bytes += layer_bytes;
    view.total_bytes += layer_bytes;
  }
  return view;
}

namespace {

std::string no_kv_reason(const CachingLayer& layer) {
  if (layer.caching == LayerCaching::shares_kv) return fmt::format("reuses the KV of layer {}", layer.kv_source);
  return "no attention: a constant-size state, no per-token KV";
}

KvCacheView window_aware_view(const CachingLayers& model, std::int64_t tokens, KvDtype dtype) {
  std::vector<LayerTokens> kept;
  for (const auto& layer : model.layers) {
    if (layer.caching != LayerCaching::keeps_tokens) {
      kept.push_back({0, {}, no_kv_reason(layer)});
      continue;
    }
    const KvRow row = layer.latent.value_or(layer.heads);
    if (layer.window_tokens && *layer.window_tokens < tokens)
      kept.push_back(
          {*layer.window_tokens, row,
           fmt::format("its {} of {} tokens", layer.attention == AttentionKind::chunked ? "attention chunk" : "window",
                       *layer.window_tokens)});
    else kept.push_back({tokens, row, "every token"});
  }
  return make_view("sliding and chunked layers keep their window, MLA layers their latent; the least an engine keeps",
                   model.layers, kept, dtype);
}

}  // namespace
}  // namespace kv_detail

KvCacheReport kv_cache_report(const Model& model, const KvRequest& request,
                              const std::vector<EngineKvLayout>& layouts) {
  KvCacheReport report;
  const KvDtypeChoice choice = default_kv_dtype(model);
  report.dtype = request.dtype.value_or(choice.dtype);
  report.dtype_from = request.dtype ? Provenance::at("--kv-dtype") : choice.from;
  report.tokens = request.tokens;
  report.weights_bytes = model.weights_bytes;
  const kv_detail::CachingLayers layers = kv_detail::caching_layers(model);
  if (layers.not_computed) {
    report.not_computed = layers.not_computed;
    return report;
  }
  report.cache = kv_detail::window_aware_view(layers, request.tokens, report.dtype);
  for (const EngineKvLayout& engine : layouts) {
    report.engines.push_back(engine.layout(layers, request.tokens, report.dtype));
    report.engines.back().engine = engine.engine;
  }
  return report;
}

}  // namespace ropelens
