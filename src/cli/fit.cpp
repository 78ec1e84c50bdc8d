#include <filesystem>
#include <memory>

#include <fmt/format.h>

#include "commands.hpp"
#include "options.hpp"
#include "output.hpp"
#include "ropelens/check/check.hpp"
#include "ropelens/check/model_log.hpp"
#include "ropelens/check/project_settings.hpp"
#include "ropelens/documents/documents.hpp"
#include "ropelens/load/model_loader.hpp"
#include "ropelens/render/formats.hpp"

namespace ropelens::cli {

void setup_fit(CLI::App* cmd, Outcome& outcome) {
  struct Options {
    std::string path;
    FitOptions fit;
    std::vector<std::string> stack;
    std::string format = "text";
    OutputOptions output;
    std::optional<std::string> revision;
  };
  auto options = std::make_shared<Options>();
  cmd->add_option("PATH", options->path, kPathHelp)->required();
  cmd->add_option("--memory", options->fit.memory,
                  "SIZE (e.g. 24GiB, 80GB): one GPU's memory, which the engine's share of it gives to its part of the "
                  "weights and the KV cache")
      ->required();
  add_tp_option(*cmd, options->fit.tp);
  cmd->add_option("--reserve", options->fit.reserve,
                  "SIZE or PERCENT of --memory (e.g. 2GiB, 10%) to set aside for what fit does not count (default 0)");
  cmd->add_option("--weights", options->fit.weights,
                  "SIZE of the weights, when no safetensors headers or GGUF tensors state it (or to override them)");
  add_list_option(*cmd, "--kv-dtype", options->fit.kv_dtypes,
                  "KV-cache dtypes to fit: bf16, f16, f32, fp8, q8_0, q4_0 (default: the config's torch_dtype, else "
                  "bf16)")
      ->check(one_of(kv_dtype_choices()));  // checked as it is read, before a missing --memory is reported
  add_engine_option(*cmd, options->fit.engine, fmt::format("fit for: {} or all", engine_names()));
  add_stack_option(*cmd, options->stack);
  add_format_option(*cmd, options->format, format_names(fit_formats()));
  add_revision_option(*cmd, options->revision);
  add_output_option(*cmd, options->output);
  add_trained_length_option(*cmd, options->fit.trained_length);
  cmd->callback([options, &outcome] {
    const ProjectSettings settings = load_project_settings(std::filesystem::current_path().string());
    const Deployment deployment = resolve_stack_option(options->stack, settings);
    FitRequest request = resolve_fit_options(options->fit, deployment);  // a bad size is reported first
    for (const std::string& note : deployment.notes) print_warning(note);
    find_format(fit_formats(), options->format, "fit");
    LoadedModel loaded = load_model(options->path, {}, options->revision);
    attach_conversion_source(loaded, std::nullopt);
    log_loaded_model(loaded);
    Output output(options->output.path);
    const FitReport report =
        write_fit_document(loaded, options->path, std::move(request), settings.trained_lengths, options->format,
                           output.stream(), text_options(options->output, output));
    output.close();
    outcome.exit_code = report.weights_exceed() ? 1 : 0;  // no context fits: an error-level answer
  });
}

}  // namespace ropelens::cli
