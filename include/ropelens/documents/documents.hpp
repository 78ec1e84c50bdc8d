// Each command's document, composed once: what `ropelens COMMAND --format F` writes, from a model already loaded or
// files already checked. The command line (src/cli/), `import ropelens` (python/) and the WebAssembly module (web/)
// call these, so the three print the same bytes for the same input. Reading the input is the caller's business.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "ropelens/check/check.hpp"
#include "ropelens/engines/deployment.hpp"
#include "ropelens/load/model_loader.hpp"
#include "ropelens/render/render.hpp"
#include "ropelens/report/fit_report.hpp"
#include "ropelens/report/inspect_report.hpp"
#include "ropelens/report/table_report.hpp"
#include "ropelens/suggest/suggest.hpp"

namespace ropelens {

// check: the document of files already checked (check_model, check_launch, check_launch_file), in order.
CheckCounts write_check_document(const std::vector<FileResult>& files, std::string_view format, std::ostream& out,
                                 const TextOptions& text = {});
// check over paths: each file's part written as the pipeline hands it over (check_paths_streaming, rendered on the
// worker that checked it); `on_file` sees each file after its part is written.
CheckCounts write_check_document(const std::vector<std::string>& paths, const CheckOptions& options,
                                 std::string_view format, std::ostream& out, const TextOptions& text,
                                 const std::function<void(const RenderedFile&)>& on_file = nullptr);

// table, and table --engine.
struct TableOptions {
  TableRequest request;        // --target, --seq-len, --pairs, --kv-dtype; its training is filled in from below
  TrainingOverrides training;  // --trained-length, --extended-length
  std::vector<TrainedLengthRule> trained_lengths;  // .ropelens.json's, for a file --trained-length does not cover
  std::vector<Engine> engines;                     // --engine: these engines' views at the target instead of the pairs
  Deployment deployment;                           // --stack, for the views
};
// Throws InputError naming the file when the model has no pair figures ("no RoPE table: …"), and
// std::invalid_argument for a format the document has not.
void write_table_document(const LoadedModel& loaded, const TableOptions& options, std::string_view format,
                          std::ostream& out, const TextOptions& text = {});

// inspect: the settings, the config's own findings (config_findings) and the KV cache at the target.
void write_inspect_document(const LoadedModel& loaded, const InspectRequest& request, std::string_view format,
                            std::ostream& out, const TextOptions& text = {});

// fit, as given on the command line.
struct FitOptions {
  std::string memory;                          // --memory SIZE: one GPU's
  int tp = 1;                                  // --tp N
  std::string reserve;                         // --reserve SIZE or PERCENT ("" = none)
  std::string weights;                         // --weights SIZE ("" = what the checkpoint states)
  std::vector<std::string> kv_dtypes;          // --kv-dtype, each ("" = the config's)
  std::string engine = "all";                  // --engine
  std::optional<std::int64_t> trained_length;  // --trained-length
};
// The request fit runs under the deployment: sizes parsed (a bad one is std::invalid_argument naming its option),
// the deployment (with an engine --engine names that no stack states: with_engine_option) served.
FitRequest resolve_fit_options(const FitOptions& options, const Deployment& deployment);
// fit of a loaded model that the user named `named` (the word its serve commands use); the trained length from
// `trained_lengths` when none is given. The report is returned for the caller's exit code.
FitReport write_fit_document(const LoadedModel& loaded, const std::string& named, FitRequest request,
                             const std::vector<TrainedLengthRule>& trained_lengths, std::string_view format,
                             std::ostream& out, const TextOptions& text = {});

// suggest: the request's trained length from .ropelens.json's rules for the file shown as `shown`, unless given.
void apply_trained_length_rules(SuggestRequest& request, const std::vector<TrainedLengthRule>& trained_lengths,
                                const std::string& shown);
void write_suggest_document(const SuggestReport& report, std::string_view format, std::ostream& out,
                            const TextOptions& text = {});

// The report's charts of one checked file: per RoPE setup its bands, its audit, and the wavelength and
// angle-coverage charts (inline SVG) with their captions, as `ropelens report` shows them.
void write_report_charts(FileResult checked, std::ostream& out);
// The docs of these rules as the report embeds them (HTML articles); codes that name no rule are passed over.
void write_rule_docs(const std::vector<std::string>& codes, std::ostream& out);

}  // namespace ropelens
