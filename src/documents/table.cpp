// `table`'s document: the per-pair rows, or with --engine the engines' views at the target.
#include <fmt/format.h>

#include "ropelens/audit/audit.hpp"
#include "ropelens/documents/documents.hpp"
#include "ropelens/engines/engine_report.hpp"
#include "ropelens/render/formats.hpp"

namespace ropelens {

void write_table_document(const LoadedModel& loaded, const TableOptions& options, std::string_view format,
                          std::ostream& out, const TextOptions& text) {
  const Model& model = loaded.model;
  // A table of a model whose head_dim had to be made up would be a table of nothing: say what is missing instead.
  if (auto missing = audit_model(model, 1).pair_figures_missing())
    throw InputError(model.source, fmt::format("no RoPE table: {}", *missing));
  if (!options.engines.empty()) {
    const auto render = find_format(engine_formats(), format, "table --engine");
    const std::int64_t target = resolve_target(options.request.target_tokens, model);
    const EngineReport report =
        select_engine_report(deployment_views(model, options.deployment, target), options.engines, target);
    render(model, report, out, text);
    return;
  }
  const auto render = find_format(table_formats(), format, "table");
  TableRequest request = options.request;
  request.training = {loaded.as_trained ? &*loaded.as_trained : nullptr,
                      training_evidence(loaded, options.training, options.trained_lengths)};
  render(build_table_report(model, request), out, text);
}

}  // namespace ropelens
