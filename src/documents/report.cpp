// The parts of `report`'s page a single checked file shows on its own: its charts and the docs of rules.
#include "ropelens/check/report_data.hpp"
#include "ropelens/documents/documents.hpp"

namespace ropelens {

void write_report_charts(FileResult checked, std::ostream& out) {
  const auto report = model_report(std::move(checked));
  if (report->check.error) return;
  render_report_setups_html(report->table, out);
}

void write_rule_docs(const std::vector<std::string>& codes, std::ostream& out) {
  render_rule_docs_html(rule_doc_entries({codes.begin(), codes.end()}), out);
}

}  // namespace ropelens
