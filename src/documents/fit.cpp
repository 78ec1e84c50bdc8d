// `fit`'s document: each engine's longest context in a memory budget.
#include <fmt/format.h>

#include "ropelens/documents/choices.hpp"
#include "ropelens/documents/documents.hpp"
#include "ropelens/input/model_locator.hpp"
#include "ropelens/model/units.hpp"
#include "ropelens/render/formats.hpp"

namespace ropelens {
namespace {

std::uint64_t byte_size(const std::string& option, const std::string& text) {
  try {
    return static_cast<std::uint64_t>(parse_byte_size(text));
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(fmt::format("{}: {}", option, e.what()));
  }
}

std::vector<KvDtype> parse_kv_dtypes(const std::vector<std::string>& names) {
  std::vector<KvDtype> dtypes;
  for (const auto& name : names) dtypes.push_back(*parse_kv_dtype(chosen(kv_dtype_choices(), name, "--kv-dtype")));
  return dtypes;
}

}  // namespace

FitRequest resolve_fit_options(const FitOptions& options, const Deployment& deployment) {
  FitRequest request;
  request.memory_bytes = byte_size("--memory", options.memory);
  request.gpus = options.tp;
  request.reserve = parse_fit_reserve("--reserve", options.reserve, request.memory_bytes);
  if (!options.weights.empty()) request.weights_bytes = byte_size("--weights", options.weights);
  request.dtypes = parse_kv_dtypes(options.kv_dtypes);
  request.deployment = with_engine_option(deployment, options.engine);
  request.engines = request.deployment.served(options.engine);
  request.training.trained_length = options.trained_length;
  return request;
}

FitReport write_fit_document(const LoadedModel& loaded, const std::string& named, FitRequest request,
                             const std::vector<TrainedLengthRule>& trained_lengths, std::string_view format,
                             std::ostream& out, const TextOptions& text) {
  const FitRender render = find_format(fit_formats(), format, "fit");
  const Model& model = loaded.model;
  request.model_word = served_model_word(model.reference ? model.reference->path : named, model.reference);
  request.training = training_evidence(loaded, request.training, trained_lengths);
  FitReport report = fit_model(model, request);
  render(report, out, text);
  return report;
}

}  // namespace ropelens
