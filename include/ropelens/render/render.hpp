// Renderers: each formats one report onto a stream and computes nothing.
#pragma once

#include <memory>
#include <optional>
#include <ostream>
#include <string_view>

#include <nlohmann/json.hpp>

#include "ropelens/model/model.hpp"
#include "ropelens/engines/engine_report.hpp"
#include "ropelens/check/check.hpp"
#include "ropelens/check/report_data.hpp"
#include "ropelens/report/fit_report.hpp"
#include "ropelens/report/inspect_report.hpp"
#include "ropelens/diff/diff.hpp"
#include "ropelens/report/table_report.hpp"
#include "ropelens/report/scheme_report.hpp"
#include "ropelens/suggest/suggest.hpp"

namespace ropelens {

// How text meets the terminal. The command line decides (TTY, NO_COLOR, --color, the window width); renderers
// never look at the terminal themselves.
struct TextOptions {
  bool color = false;        // fmt text styles on severities, headings and out-of-range rows
  std::optional<int> width;  // a terminal's columns: fit tables and wrap prose; none keeps every column
  bool quiet = false;        // check: only the findings and the summary
};

nlohmann::json model_to_json(const Model& model);

void render_inspect_text(const InspectReport& report, std::ostream& out, const TextOptions& options = {});
void render_inspect_json(const InspectReport& report, std::ostream& out);
// Deployment facts, shared by inspect and table: the KV cache at the target, and a GGUF file's header.
void render_kv_cache_text(const KvCacheReport& kv, std::ostream& out, const TextOptions& options = {});
nlohmann::json kv_cache_json(const KvCacheReport& kv);
void render_gguf_metadata_text(const GgufMetadata& metadata, std::ostream& out);
nlohmann::json gguf_metadata_json(const GgufMetadata& metadata);
nlohmann::json scheme_report_json(const SchemeReport& schemes);
void render_scheme_text(const SchemeReport& schemes, std::ostream& out);

void render_table_text(const TableReport& report, std::ostream& out, const TextOptions& options = {});
void render_table_json(const TableReport& report, std::ostream& out);
void render_table_csv(const TableReport& report, std::ostream& out);
void render_table_markdown(const TableReport& report, std::ostream& out);
// The wavelength chart of every setup as one SVG document.
void render_table_svg(const TableReport& report, std::ostream& out);

// `fit`: the longest context per engine and KV-cache dtype that fits a memory budget.
void render_fit_text(const FitReport& report, std::ostream& out, const TextOptions& options = {});
void render_fit_json(const FitReport& report, std::ostream& out);
nlohmann::json fit_json(const FitReport& report);

// `report`: one self-contained HTML page (inline CSS and SVG; no scripts, nothing fetched).
void render_report_html(const ReportDocument& document, std::ostream& out);
// Parts of that page: per RoPE setup of a table with its audit, the bands, the audit and the wavelength and
// angle-coverage charts with their captions; and the docs of rules, one <article> each.
void render_report_setups_html(const TableReport& table, std::ostream& out);
void render_rule_docs_html(const std::vector<RuleDocEntry>& docs, std::ostream& out);

// Check output is streamed: begin, one part per file in path order, then end with the counts.
class CheckRenderer {
 public:
  virtual ~CheckRenderer() = default;
  virtual void begin() {}
  // One file's part of the output. It touches no renderer state, so the check pipeline calls it on the
  // worker thread that checked the file.
  virtual std::string render_file(const FileResult& file) const = 0;
  // Writes the parts in path order (separators between parts are the renderer's business).
  virtual void write_file(const std::string& part) = 0;
  // A file that could not be read, after its part (for formats that list such files apart, like SARIF).
  virtual void unreadable(const std::string& /*path*/, const std::string& /*message*/) {}
  virtual void end(const CheckCounts& counts) = 0;

  void file(const FileResult& file) {
    write_file(render_file(file));
    if (file.error) unreadable(file.path, *file.error);
  }
};
std::unique_ptr<CheckRenderer> make_check_renderer(std::string_view format, std::ostream& out,
                                                   const TextOptions& text = {});

void render_check_text(const CheckReport& report, std::ostream& out);
void render_check_json(const CheckReport& report, std::ostream& out);
void render_check_sarif(const CheckReport& report, std::ostream& out);
void render_check_github(const CheckReport& report, std::ostream& out);

// `diff`: every format but SARIF and GitHub annotations shows the whole comparison; those two hold the
// findings the change introduced, each marked baselineState "new".
void render_diff_text(const DiffReport& report, std::ostream& out, const TextOptions& options = {});
void render_diff_json(const DiffReport& report, std::ostream& out);
void render_diff_markdown(const DiffReport& report, std::ostream& out);
void render_diff_sarif(const DiffReport& report, std::ostream& out);
void render_diff_github(const DiffReport& report, std::ostream& out);

void render_engines_text(const Model& model, const EngineReport& report, std::ostream& out,
                         const TextOptions& options = {});
void render_engines_json(const Model& model, const EngineReport& report, std::ostream& out);
// The JSON document render_engines_json prints, for embedding in another report (e.g. check --format json).
nlohmann::json engines_to_json(const Model& model, const EngineReport& report);

// Fitted to options.width (80 columns without one); its commands go through the command printer.
void render_suggest_text(const SuggestReport& report, std::ostream& out, const TextOptions& options = {});
void render_suggest_json(const SuggestReport& report, std::ostream& out);

// The catalog fitted to options.width (each summary and change in its column, or below its row when the column
// would be narrower than 30); without a width, each row on one line.
void render_rules_text(std::ostream& out, const TextOptions& options = {});
void render_rules_json(std::ostream& out);
void render_rules_markdown(std::ostream& out);
// `explain CODE`: the rule's page, or its metadata with the page as JSON.
struct Rule;
void render_explain_text(const Rule& rule, std::ostream& out);
void render_explain_json(const Rule& rule, std::ostream& out);

}  // namespace ropelens
