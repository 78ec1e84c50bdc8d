// `diff --format sarif|github`: only the findings the change introduced, where code scanning shows them.
#include "render/check/check_renderers.hpp"
#include "render/writers/json_writer.hpp"
#include "ropelens/render/render.hpp"
#include "render/writers/sarif_common.hpp"

namespace ropelens {

void render_diff_sarif(const DiffReport& report, std::ostream& out) {
  std::string results;
  std::vector<render_detail::SarifNotification> unreadable;
  for (const auto& m : report.models) {
    if (m.error) unreadable.push_back({m.path, *m.error});
    for (const auto& d : m.findings.introduced) {
      results += results.empty() ? "\n        " : ",\n        ";
      render_detail::JsonWriter writer(results, 8);
      render_detail::write_sarif_result(writer, m.finding_file(), d, "new");
    }
  }
  const nlohmann::json properties = {{"compared", {{"new", report.new_label}, {"old", report.old_label}}},
                                     {"fixed", report.counts.fixed},
                                     {"kept", report.counts.kept},
                                     {"unchanged", report.counts.unchanged}};
  out << render_detail::sarif_log_head() << results << (results.empty() ? "]" : "\n      ]")
      << render_detail::sarif_run_tail(unreadable, properties, report.source_root);
}

void render_diff_github(const DiffReport& report, std::ostream& out) {
  for (const auto& m : report.models) {
    for (const auto& d : m.findings.introduced)
      out << render_detail::github_annotation(m.resolved_file ? render_detail::linked_path(*m.resolved_file) : m.path,
                                              d);
    if (m.error) out << render_detail::github_error(m.path, *m.error);
  }
}

}  // namespace ropelens
