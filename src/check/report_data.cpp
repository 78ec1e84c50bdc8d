#include "ropelens/check/report_data.hpp"

#include "ropelens/rules/rule_docs.hpp"

namespace ropelens {

std::vector<RuleDocEntry> rule_doc_entries(const std::set<std::string>& codes) {
  std::vector<RuleDocEntry> docs;
  for (const auto& code : codes)
    if (const Rule* rule = find_rule(code)) docs.push_back({rule->meta.code, rule->meta.name, rule_doc(code)});
  return docs;
}

std::unique_ptr<ModelReport> model_report(FileResult&& checked) {
  auto report = std::make_unique<ModelReport>();
  report->check = std::move(checked);
  report->counts.add(report->check);
  if (report->check.error) return report;
  TableRequest request;
  request.target_tokens = report->check.audit.target_tokens;
  request.audit = &report->check.audit;
  report->table = build_table_report(report->check.model, request);
  for (const auto& setup : report->check.audit.setups)
    report->out_of_range_pairs += static_cast<int>(setup.out_of_range_pairs.size());
  return report;
}

namespace {

// With --memory, what fit prints for this model, or why it cannot.
void add_fit(ModelReport& report, const CheckOptions& options) {
  if (!options.memory_budget || report.check.error) return;
  FitRequest request;
  request.memory_bytes = static_cast<std::uint64_t>(*options.memory_budget);
  request.gpus = options.tensor_parallel;
  if (options.kv_dtype) request.dtypes = {*options.kv_dtype};
  request.deployment = options.deployment;
  request.engines = options.engines;  // the views --engine shows, without the reference the deployment does not serve
  std::erase_if(request.engines, [&](Engine engine) { return !options.deployment.serves(engine); });
  try {
    report.fit = fit_model(report.check.model, request);
  } catch (const FitRefused& refused) {
    report.fit_refused = refused.what();
  }
}

}  // namespace

ReportDocument build_report(const std::vector<std::string>& paths, const CheckOptions& options) {
  ReportDocument document;
  std::set<std::string> codes;
  document.counts = check_paths_streaming(paths, options, [&](FileResult&& file) {
    for (const auto& d : file.diagnostics) codes.insert(d.code);
    document.models.push_back(model_report(std::move(file)));
    add_fit(*document.models.back(), options);
  });
  document.rule_docs = rule_doc_entries(codes);
  return document;
}

}  // namespace ropelens
