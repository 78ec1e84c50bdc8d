// The KV-cache report, the fit search and the per-GPU budget with the registry's layouts, shares and dtypes.
#include "ropelens/engines/kv_cache.hpp"

#include <fmt/format.h>

#include "ropelens/engines/registry.hpp"

namespace ropelens {
namespace {

KvSplit split_of(Engine engine, int gpus) { return {gpus, engine_row(engine).tp_sharding == TpSharding::heads}; }

// The weights as the engine holds them: --weights as given; a GGUF file dequantized by an engine that does so; a
// float32 checkpoint downcast to the dtype the engine serves it in; else the checkpoint's own size.
void weights_as_held(const Model& model, const EngineRow& row, KvDtype config_dtype, const BudgetRequest& request,
                     EngineBudget& out) {
  if (request.weights_bytes) {
    out.weights_bytes = *request.weights_bytes;
    out.weights_from = "--weights";
    return;
  }
  if (model.gguf && row.gguf_dequantized && model.weights_parameters) {
    const double bytes = bytes_per_element(*row.gguf_dequantized);
    out.weights_bytes = static_cast<std::uint64_t>(static_cast<double>(model.weights_parameters->value) * bytes);
    out.weights_as_stated = false;
    out.weights_from =
        fmt::format("{} dequantizes the GGUF file on load: {} parameters × {} bytes ({})", row.display_name,
                    model.weights_parameters->value, bytes, to_string(*row.gguf_dequantized));
    return;
  }
  if (!model.weights_bytes) return;
  out.weights_bytes = model.weights_bytes->value;
  out.weights_from = model.weights_bytes->from.describe();
  if (!model.gguf && config_dtype == KvDtype::f32 && out.model_dtype != KvDtype::f32) {
    const double ratio = bytes_per_element(out.model_dtype) / bytes_per_element(KvDtype::f32);
    out.weights_bytes = static_cast<std::uint64_t>(static_cast<double>(*out.weights_bytes) * ratio);
    out.weights_as_stated = false;
    out.weights_from += fmt::format(", loaded as {} from float32 (× {})", to_string(out.model_dtype), ratio);
  }
}

}  // namespace

KvCacheReport kv_cache_at(const Model& model, const KvRequest& request) {
  static const std::vector<EngineKvLayout> layouts = [] {
    std::vector<EngineKvLayout> out;
    for (const EngineRow* row : engine_registry()) out.push_back({row->name, row->kv_layout});
    return out;
  }();
  return kv_cache_report(model, request, layouts);
}

KvFit longest_kv_fit(const Model& model, Engine engine, KvDtype dtype, std::uint64_t kv_budget, std::int64_t ceiling,
                     int gpus) {
  return longest_kv_fit(model, engine_row(engine).kv_layout, dtype, kv_budget, ceiling, split_of(engine, gpus));
}

std::uint64_t engine_kv_bytes(const Model& model, Engine engine, KvDtype dtype, std::int64_t tokens, int gpus) {
  const kv_detail::CachingLayers layers = kv_detail::caching_layers(model);
  if (layers.not_computed) return 0;
  return kv_bytes_per_gpu(layers, engine_row(engine).kv_layout, dtype, tokens, split_of(engine, gpus));
}

EngineBudget engine_budget(const Model& model, Engine engine, const BudgetRequest& request) {
  const EngineRow& row = engine_row(engine);
  EngineBudget out;
  out.engine = engine;
  const KvDtype config_dtype = default_kv_dtype(model).dtype;
  out.model_dtype = model.gguf && row.gguf_dequantized ? *row.gguf_dequantized : row.served_dtype(config_dtype);
  out.kv_dtype = request.kv_dtype.value_or(out.model_dtype);
  out.cache_flag = row.cache_dtype(out.kv_dtype, out.model_dtype);
  out.share = request.share ? MemoryShare{*request.share, fmt::format("{} as launched", row.serve.memory_share)}
                            : row.memory_share({request.gpu_bytes, request.gpus, &model, request.deployment,
                                                request.weights_bytes ? request.weights_bytes
                                                : model.weights_bytes ? std::optional(model.weights_bytes->value)
                                                                      : std::nullopt});
  weights_as_held(model, row, config_dtype, request, out);
  out.split = split_budget(
      {request.gpu_bytes, out.share.fraction, request.reserve_bytes, out.weights_bytes.value_or(0), request.gpus});
  return out;
}

}  // namespace ropelens
