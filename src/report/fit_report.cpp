// fit: the memory left for the KV cache, searched per engine and dtype over the engine's own cache layout, capped
// by the declared length and the audit's in-range length.
#include "ropelens/report/fit_report.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "ropelens/audit/reach.hpp"
#include "ropelens/engines/kv_cache.hpp"
#include "ropelens/engines/registry.hpp"
#include "ropelens/model/units.hpp"

namespace ropelens {
namespace {

// The share of the memory the engine may take: all of it but the reserve.
std::string memory_share(const FitReport& report) {
  const double share =
      static_cast<double>(report.memory_bytes - report.reserve.bytes) / static_cast<double>(report.memory_bytes);
  return fmt::format("{:.4g}", share);
}

std::string serve_command(const FitReport& report, const EngineFit& fit, const std::string& dtype_value) {
  const ServeFlags& serve = engine_row(fit.engine).serve;
  if (serve.launch.empty()) return "";
  std::string command = fmt::format("{} {} {}", serve.launch, serve.context_length, fit.max_tokens);
  if (!serve.kv_cache_dtype.empty()) command += fmt::format(" {} {}", serve.kv_cache_dtype, dtype_value);
  if (!serve.value_cache_dtype.empty()) command += fmt::format(" {} {}", serve.value_cache_dtype, dtype_value);
  if (!serve.memory_share.empty()) command += fmt::format(" {} {}", serve.memory_share, memory_share(report));
  return command;
}

Field<std::uint64_t> weights_of(const Model& model, const FitRequest& request) {
  if (request.weights_bytes) return {*request.weights_bytes, Provenance::derived("--weights")};
  if (model.weights_bytes) return *model.weights_bytes;
  throw FitRefused(model.source,
                   "the weights' size is unknown (no model.safetensors, model.safetensors.index.json or GGUF tensors "
                   "to read it from): give it with --weights SIZE, e.g. --weights 16GB");
}

// The cap the model itself sets: the audit's in-range length when it is below the declared one.
std::int64_t length_cap(const FitReport& report) {
  return report.rope_tokens ? std::min(*report.rope_tokens, report.declared.value) : report.declared.value;
}

FitLimit cap_reason(const FitReport& report) {
  return report.rope_tokens && *report.rope_tokens < report.declared.value ? FitLimit::rope : FitLimit::declared;
}

EngineFit fit_engine(const Model& model, const FitReport& report, Engine engine, KvDtype dtype, KvDtype model_dtype) {
  EngineFit fit;
  fit.engine = engine;
  fit.dtype = dtype;
  const EngineRow& row = engine_row(engine);
  fit.granularity = row.kv_granularity.tokens;
  fit.granularity_text = row.kv_granularity.text;
  const CacheDtypeFlag flag = row.cache_dtype(dtype, model_dtype);
  if (flag.unsupported) {
    fit.unsupported = flag.unsupported;
    return fit;
  }
  const std::int64_t cap = length_cap(report);
  const KvFit kv = longest_kv_fit(model, engine, dtype, report.kv_budget, cap);
  fit.memory_tokens = kv.tokens;
  fit.max_tokens = kv.tokens;
  fit.kv_bytes = kv.kv_bytes;
  fit.limited_by = kv.tokens < cap ? FitLimit::memory : cap_reason(report);
  fit.serve_command = serve_command(report, fit, flag.value);
  return fit;
}

std::vector<std::string> not_counted(const FitRequest& request) {
  std::vector<std::string> out = {"activations and the engine's working buffers", "CUDA graphs and the CUDA context",
                                  "more than one sequence: each figure is one sequence of max_tokens"};
  if (request.reserve.bytes == 0)
    out.push_back(
        "the engine's own reserve (vLLM leaves 1 - --gpu-memory-utilization of the GPU free, SGLang 1 - "
        "--mem-fraction-static): give --reserve SIZE or PERCENT to set it aside");
  return out;
}

}  // namespace

std::string_view to_string(FitLimit limit) {
  switch (limit) {
    case FitLimit::memory: return "memory";
    case FitLimit::rope: return "rope";
    case FitLimit::declared: return "declared";
  }
  return "memory";
}

FitReport fit_model(const Model& model, const FitRequest& request) {
  FitReport report;
  report.source = model.source;
  report.memory_bytes = request.memory_bytes;
  report.reserve = request.reserve;
  if (report.reserve.bytes > report.memory_bytes)
    throw FitRefused(model.source, fmt::format("--reserve {} is more than --memory {}", report.reserve.as_given,
                                               format_bytes(static_cast<std::int64_t>(report.memory_bytes))));
  report.weights = weights_of(model, request);
  if (const auto not_computed = kv_cache_at(model, {1, std::nullopt}).not_computed)
    throw FitRefused(model.source, fmt::format("the KV cache cannot be sized: {}", *not_computed));
  const std::uint64_t usable = report.memory_bytes - report.reserve.bytes;
  report.kv_budget = usable > report.weights.value ? usable - report.weights.value : 0;
  report.declared = model.declared_length();
  const TrainingHistory history{nullptr, request.training};  // check's audit, so fit and check agree
  // A declared length raised with the RoPE unchanged (CTX211) caps nothing: the trained length it hides does.
  const TrainedLengthBound trained = audit_model(model, 1, history).trained;
  const std::int64_t ceiling =
      trained.bound ? std::min(trained.bound->tokens, report.declared.value) : report.declared.value;
  report.rope_tokens = longest_in_range(model, ceiling, history);
  if (!report.rope_tokens) report.rope_unknown = audit_model(model, 1, history).pair_figures_missing();
  report.not_counted = not_counted(request);
  const KvDtype model_dtype = default_kv_dtype(model).dtype;
  const std::vector<KvDtype> dtypes = request.dtypes.empty() ? std::vector<KvDtype>{model_dtype} : request.dtypes;
  for (Engine engine : request.engines)
    for (KvDtype dtype : dtypes) report.fits.push_back(fit_engine(model, report, engine, dtype, model_dtype));
  return report;
}

}  // namespace ropelens
