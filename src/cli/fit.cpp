#include <filesystem>
#include <memory>

#include <fmt/format.h>

#include "commands.hpp"
#include "options.hpp"
#include "output.hpp"
#include "ropelens/check/check.hpp"
#include "ropelens/check/model_log.hpp"
#include "ropelens/check/project_settings.hpp"
#include "ropelens/input/model_locator.hpp"
#include "ropelens/load/model_loader.hpp"
#include "ropelens/model/units.hpp"
#include "ropelens/render/formats.hpp"
#include "ropelens/report/fit_report.hpp"

namespace ropelens::cli {
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

void setup_fit(CLI::App* cmd, Outcome& outcome) {
  struct Options {
    std::string path;
    std::string memory;
    std::string reserve;
    std::string weights;
    std::vector<std::string> kv_dtypes;
    std::string engine = "all";
    std::vector<std::string> stack;
    std::string format = "text";
    OutputOptions output;
    std::optional<std::string> revision;
    int tp = 1;
    std::optional<std::int64_t> trained_length;
  };
  auto options = std::make_shared<Options>();
  cmd->add_option("PATH", options->path, kPathHelp)->required();
  cmd->add_option("--memory", options->memory,
                  "SIZE (e.g. 24GiB, 80GB): one GPU's memory, which the engine's share of it gives to its part of the "
                  "weights and the KV cache")
      ->required();
  add_tp_option(*cmd, options->tp);
  cmd->add_option("--reserve", options->reserve,
                  "SIZE or PERCENT of --memory (e.g. 2GiB, 10%) to set aside for what fit does not count (default 0)");
  cmd->add_option("--weights", options->weights,
                  "SIZE of the weights, when no safetensors headers or GGUF tensors state it (or to override them)");
  add_list_option(*cmd, "--kv-dtype", options->kv_dtypes,
                  "KV-cache dtypes to fit: bf16, f16, f32, fp8, q8_0, q4_0 (default: the config's torch_dtype, else "
                  "bf16)")
      ->check(one_of(kv_dtype_choices()));  // checked as it is read, before a missing --memory is reported
  add_engine_option(*cmd, options->engine, fmt::format("fit for: {} or all", engine_names()));
  add_stack_option(*cmd, options->stack);
  add_format_option(*cmd, options->format, format_names(fit_formats()));
  add_revision_option(*cmd, options->revision);
  add_output_option(*cmd, options->output);
  add_trained_length_option(*cmd, options->trained_length);
  cmd->callback([options, &outcome] {
    FitRequest request;
    request.memory_bytes = byte_size("--memory", options->memory);
    request.gpus = options->tp;
    request.reserve = parse_fit_reserve("--reserve", options->reserve, request.memory_bytes);
    if (!options->weights.empty()) request.weights_bytes = byte_size("--weights", options->weights);
    request.dtypes = parse_kv_dtypes(options->kv_dtypes);
    const ProjectSettings settings = load_project_settings(std::filesystem::current_path().string());
    const Deployment deployment = with_engine_option(deployment_option(options->stack, settings), options->engine);
    request.engines = deployment.served(options->engine);
    request.deployment = deployment;
    const FitRender render = find_format(fit_formats(), options->format, "fit");
    LoadedModel loaded = load_model(options->path, {}, options->revision);
    attach_conversion_source(loaded, std::nullopt);
    log_loaded_model(loaded);
    request.model_word = served_model_word(loaded.model.reference ? loaded.model.reference->path : options->path,
                                           loaded.model.reference);
    request.training.trained_length = options->trained_length;
    request.training = training_evidence(loaded, request.training, settings.trained_lengths);
    const FitReport report = fit_model(loaded.model, request);
    Output output(options->output.path);
    render(report, output.stream(), text_options(options->output, output));
    output.close();
    outcome.exit_code = report.weights_exceed() ? 1 : 0;  // no context fits: an error-level answer
  });
}

}  // namespace ropelens::cli
