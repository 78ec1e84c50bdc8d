// SARIF 2.1.0, with rule metadata from the catalog, streamed one file at a time.
#include <nlohmann/json.hpp>

#include "render/check/check_renderers.hpp"
#include "render/writers/json_writer.hpp"
#include "ropelens/render/render.hpp"
#include "render/writers/sarif_common.hpp"

namespace ropelens {
namespace {

using nlohmann::json;
using render_detail::JsonWriter;

// What the run adds beyond its results: the baseline's effect, and config.json files that are no model's.
json run_properties(const CheckCounts& counts) {
  json properties = json::object();
  if (counts.baseline_used) {
    json fixed = json::array();
    for (const auto& entry : counts.baseline_fixed) fixed.push_back(to_json(entry));
    properties["baseline"] = {{"fixed", fixed}, {"suppressed", counts.baseline_suppressed}};
  }
  if (counts.skipped_files > 0) properties["skipped_files"] = counts.skipped_files;
  return properties;
}

// The run's results are streamed first; what is only known at the end (invocations, the baseline) follows
// them, so keys of the run object are not in sorted order.
class SarifCheckRenderer : public CheckRenderer {
 public:
  explicit SarifCheckRenderer(std::ostream& out) : out_(out) {}
  void begin() override { out_ << render_detail::sarif_log_head(); }
  // The file's results, each indented and separated as inside the results array.
  std::string render_file(const FileResult& file) const override {
    std::string part;
    part.reserve(4096 * file.diagnostics.size());  // a result is 1 to 4 KiB
    const auto state = file.baseline ? std::optional<std::string_view>("new") : std::nullopt;
    for (const auto& d : file.diagnostics) {
      if (!part.empty()) part += ",\n        ";
      JsonWriter writer(part, 8);
      render_detail::write_sarif_result(writer, file.finding_file(), d, state);
    }
    return part;
  }
  void write_file(const std::string& part) override {
    if (part.empty()) return;
    out_ << (first_ ? "\n        " : ",\n        ") << part;
    first_ = false;
  }
  void unreadable(const std::string& path, const std::string& message) override {
    unreadable_.push_back({path, message});
  }
  void end(const CheckCounts& counts) override {
    out_ << (first_ ? "]" : "\n      ]") << render_detail::sarif_run_tail(unreadable_, run_properties(counts));
  }

 private:
  std::ostream& out_;
  bool first_ = true;
  std::vector<render_detail::SarifNotification> unreadable_;
};

}  // namespace

namespace render_detail {
std::unique_ptr<CheckRenderer> make_sarif_check_renderer(std::ostream& out) {
  return std::make_unique<SarifCheckRenderer>(out);
}
}  // namespace render_detail

}  // namespace ropelens
