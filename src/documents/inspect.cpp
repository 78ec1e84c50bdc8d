// `inspect`'s document: the settings as read, the config's own findings and the KV cache at the target.
#include "ropelens/documents/documents.hpp"
#include "ropelens/render/formats.hpp"

namespace ropelens {

void write_inspect_document(const LoadedModel& loaded, const InspectRequest& request, std::string_view format,
                            std::ostream& out, const TextOptions& text) {
  const auto render = find_format(inspect_formats(), format, "inspect");
  InspectReport report = build_inspect_report(loaded, request);
  report.problems = config_findings(loaded);
  render(report, out, text);
}

}  // namespace ropelens
