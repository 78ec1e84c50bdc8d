// fit: per engine and dtype, one GPU's memory as the engine divides it (its default share, less the reserve and its
// part of the weights as it holds them; engines/kv_cache.hpp, engine_budget, which CTX210 uses too), searched over
// the engine's own cache layout split over --tp GPUs, capped by the declared length and the audit's in-range length.
#include "ropelens/report/fit_report.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <stdexcept>

#include <fmt/format.h>

#include "ropelens/audit/reach.hpp"
#include "ropelens/engines/kv_cache.hpp"
#include "ropelens/engines/registry.hpp"
#include "ropelens/model/units.hpp"

namespace ropelens {
namespace {

// The engine's derived length stops short of `tokens` in some version the deployment runs: the engine then needs
// its allow_longer variable.
bool needs_allow_longer(const std::vector<EngineView>& views, Engine engine, std::int64_t tokens) {
  return std::any_of(views.begin(), views.end(), [&](const EngineView& view) {
    return engine_of(view.version) == engine && view.length.limit_tokens && *view.length.limit_tokens < tokens;
  });
}

std::string serve_command(const FitRequest& request, const Model& model, const EngineFit& fit,
                          const std::string& dtype_value, const std::vector<EngineView>& views) {
  const EngineRow& row = engine_row(fit.engine);
  const ServeFlags& serve = serve_flags(fit.engine, request.deployment);
  if (serve.launch.empty()) return "";
  // The engine that loads GGUF files takes the model by name only when it is one; the others take the model.
  const bool names_model = row.gguf == nullptr || model.gguf.has_value();
  std::string command = launch_command(serve, names_model ? request.model_word : "");
  if (!serve.context_length.empty()) command += fmt::format(" {} {}", serve.context_length, fit.max_tokens);
  if (!serve.allow_longer.empty() && needs_allow_longer(views, fit.engine, fit.max_tokens))
    command = fmt::format("{} {}", serve.allow_longer, command);
  if (!serve.kv_cache_dtype.empty()) command += fmt::format(" {} {}", serve.kv_cache_dtype, dtype_value);
  if (!serve.value_cache_dtype.empty()) command += fmt::format(" {} {}", serve.value_cache_dtype, dtype_value);
  if (!serve.memory_share.empty() && !fit.share.formula.empty())
    command += fmt::format(" {} {:.4g}", serve.memory_share, fit.share.fraction);
  if (!serve.tensor_parallel.empty() && request.gpus > 1)
    command += fmt::format(" {} {}", serve.tensor_parallel, request.gpus);
  if (!serve.pool_size.empty()) command += fmt::format(" {} {}", serve.pool_size, fit.max_tokens);
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

EngineFit fit_engine(const Model& model, const FitRequest& request, const FitReport& report, Engine engine,
                     std::optional<KvDtype> dtype, const std::vector<EngineView>& views) {
  const EngineRow& row = engine_row(engine);
  const EngineBudget budget = engine_budget(model, engine,
                                            {request.memory_bytes, request.reserve.bytes, request.gpus,
                                             request.weights_bytes, dtype, &request.deployment, std::nullopt});
  EngineFit fit;
  fit.engine = engine;
  fit.dtype = budget.kv_dtype;
  fit.granularity = row.kv_granularity.tokens;
  fit.granularity_text = row.kv_granularity.text;
  fit.share = budget.share;
  fit.usable_bytes = budget.split.usable;
  fit.weights_bytes = budget.split.weights_per_gpu;
  fit.weights_from = budget.weights_from;
  fit.weights_as_stated = budget.weights_as_stated;
  fit.kv_budget = budget.split.kv_budget;
  if (budget.cache_flag.unsupported) {
    fit.unsupported = budget.cache_flag.unsupported;
    return fit;
  }
  if (budget.split.weights_exceed) {
    fit.limited_by = FitLimit::weights;
    return fit;
  }
  const std::int64_t cap = length_cap(report);
  const KvFit kv = longest_kv_fit(model, engine, budget.kv_dtype, budget.split.kv_budget, cap, request.gpus);
  fit.memory_tokens = kv.tokens;
  fit.max_tokens = kv.tokens;
  fit.kv_bytes = kv.kv_bytes;
  fit.limited_by = kv.tokens < cap ? FitLimit::memory : cap_reason(report);
  // No command serves nothing: a model that fits no token gets none (text and JSON alike).
  if (fit.max_tokens > 0) fit.serve_command = serve_command(request, model, fit, budget.cache_flag.value, views);
  return fit;
}

std::vector<std::string> not_counted(const FitRequest& request) {
  std::vector<std::string> out = {
      "activations, the engine's working buffers, CUDA graphs and the CUDA context, beyond the 1 − share of the GPU "
      "an engine with a share leaves for them",
      "more than one sequence: each figure is one sequence of max_tokens"};
  if (request.gpus > 1)
    out.push_back(
        "weights split over --tp GPUs as the whole size / N: layers every GPU keeps whole (norms, a replicated "
        "embedding) are counted once");
  if (request.reserve.bytes == 0)
    out.push_back("what the engine's share leaves too little room for: give --reserve SIZE or PERCENT to set it aside");
  return out;
}

// An engine whose server takes no context length (MLX-LM) cannot be held to a figure below the declared length:
// every request must keep within it, and check --serve reads its line at the declared length.
std::optional<std::string> uncapped(const FitReport& report, Engine engine, const Deployment& deployment) {
  const ServeFlags& serve = serve_flags(engine, deployment);
  if (serve.launch.empty() || !serve.context_length.empty()) return std::nullopt;
  std::int64_t shortest = 0;
  for (const EngineFit& fit : report.fits)
    if (fit.engine == engine && fit.max_tokens > 0 && fit.max_tokens < report.declared.value)
      shortest = shortest == 0 ? fit.max_tokens : std::min(shortest, fit.max_tokens);
  if (shortest == 0) return std::nullopt;
  return fmt::format(
      "a cap on {0}'s length: its server takes none, so {1} tokens hold only while every request keeps "
      "within them; check --serve reads its line at the declared {2} (and says so where that does not fit)",
      display_name(engine), shortest, report.declared.value);
}

}  // namespace

FitReserve parse_fit_reserve(std::string_view option, const std::string& text, std::uint64_t memory) {
  if (text.empty() || text == "0") return {0, text};
  if (text.back() != '%') {
    try {
      return {static_cast<std::uint64_t>(parse_byte_size(text)), text};
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(fmt::format("{}: {}", option, e.what()));
    }
  }
  const std::string number = text.substr(0, text.size() - 1);
  std::size_t used = 0;
  double percent = -1.0;
  try {
    percent = std::stod(number, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != number.size() || number.empty() || !(percent >= 0.0 && percent <= 100.0))
    throw std::invalid_argument(fmt::format("{} {}: a share is a number from 0 to 100 followed by %", option, text));
  return {static_cast<std::uint64_t>(std::ceil(static_cast<double>(memory) * percent / 100.0)), text};
}

std::string_view to_string(FitLimit limit) {
  switch (limit) {
    case FitLimit::memory: return "memory";
    case FitLimit::rope: return "rope";
    case FitLimit::declared: return "declared";
    case FitLimit::weights: return "weights";
  }
  return "memory";
}

bool FitReport::weights_exceed() const {
  return std::any_of(fits.begin(), fits.end(),
                     [](const EngineFit& fit) { return fit.limited_by == FitLimit::weights; });
}

FitReport fit_model(const Model& model, const FitRequest& request) {
  FitReport report;
  report.source = model.source;
  report.memory_bytes = request.memory_bytes;
  report.gpus = std::max(1, request.gpus);
  report.reserve = request.reserve;
  if (report.reserve.bytes > report.memory_bytes)
    throw FitRefused(model.source, fmt::format("--reserve {} is more than --memory {}", report.reserve.as_given,
                                               format_bytes(static_cast<std::int64_t>(report.memory_bytes))));
  report.weights = weights_of(model, request);
  if (const auto not_computed = kv_cache_at(model, {1, std::nullopt}).not_computed)
    throw FitRefused(model.source, fmt::format("the KV cache cannot be sized: {}", *not_computed));
  report.declared = model.declared_length();
  const TrainingHistory history{nullptr, request.training};  // check's audit, so fit and check agree
  // A declared length raised with the RoPE unchanged (CTX211) caps nothing: the trained length it hides does.
  const TrainedLengthBound trained = audit_model(model, 1, history).trained;
  const std::int64_t ceiling =
      trained.bound ? std::min(trained.bound->tokens, report.declared.value) : report.declared.value;
  report.rope_tokens = longest_in_range(model, ceiling, history);
  if (!report.rope_tokens) report.rope_unknown = audit_model(model, 1, history).pair_figures_missing();
  report.not_counted = not_counted(request);
  const std::vector<EngineView> views = deployment_views(model, request.deployment, length_cap(report));
  std::vector<std::optional<KvDtype>> dtypes(request.dtypes.begin(), request.dtypes.end());
  if (dtypes.empty()) dtypes.emplace_back();  // each engine's own cache dtype for the config's
  for (Engine engine : request.engines)
    for (const auto& dtype : dtypes) report.fits.push_back(fit_engine(model, request, report, engine, dtype, views));
  for (Engine engine : request.engines)
    if (auto caveat = uncapped(report, engine, request.deployment)) report.not_counted.push_back(std::move(*caveat));
  return report;
}

}  // namespace ropelens
