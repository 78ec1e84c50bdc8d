// `ropelens report`: one self-contained HTML page (inline CSS and SVG, no scripts, nothing fetched) per set of
// models: a summary table, then per model its settings, per RoPE setup the wavelength and angle-coverage
// charts, the engine comparison and the findings, and at the end the docs of the rules that fired.
#include <map>
#include <sstream>

#include <fmt/format.h>

#include "render/engines/engine_text.hpp"
#include "render/writers/format.hpp"
#include "render/writers/markdown_html.hpp"
#include "render/inspect/model_settings.hpp"
#include "ropelens/model/units.hpp"
#include "ropelens/render/command_text.hpp"
#include "ropelens/render/render.hpp"
#include "ropelens/check/report_data.hpp"
#include "render/table/rope_charts.hpp"
#include "render/table/table_summary.hpp"
#include "render/writers/xml_text.hpp"

namespace ropelens {
namespace {

using namespace render_detail;

constexpr std::string_view kStyle = R"css(
body { font: 15px/1.45 "DejaVu Sans", Arial, sans-serif; color: #1a1a1a; background: #ffffff;
       max-width: 1100px; margin: 0 auto; padding: 24px; }
h1 { font-size: 24px; margin-bottom: 4px; }
h2 { font-size: 20px; border-bottom: 2px solid #0072B2; padding-bottom: 4px; margin-top: 40px; }
h3 { font-size: 16px; margin-top: 28px; }
h4 { font-size: 15px; margin: 16px 0 4px; }
table { border-collapse: collapse; margin: 8px 0; font-size: 13px; }
th, td { border: 1px solid #cccccc; padding: 3px 8px; text-align: left; vertical-align: top; }
th { background: #f2f2f2; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
figure { margin: 16px 0; }
svg.chart { max-width: 100%; height: auto; }
figcaption { font-size: 13px; color: #444444; max-width: 760px; }
code, pre { font-family: "DejaVu Sans Mono", monospace; font-size: 13px; }
pre { background: #f5f5f5; padding: 8px; overflow-x: auto; }
.muted { color: #555555; }
.sev { display: inline-block; padding: 0 6px; border-radius: 3px; font-weight: bold; font-size: 12px; }
.sev-error { background: #D55E00; color: #ffffff; }
.sev-warning { background: #E69F00; color: #000000; }
.sev-info { background: #0072B2; color: #ffffff; }
.oor { color: #B34700; font-weight: bold; }
.finding { margin: 6px 0 12px; }
.finding p { margin: 2px 0 2px 16px; }
.rule-doc { border-left: 3px solid #0072B2; padding-left: 14px; margin: 20px 0; }
.unreadable { color: #B34700; }
@media print { body { max-width: none; padding: 0; } h2 { break-before: page; } figure { break-inside: avoid; } }
)css";

std::string h(std::string_view text) { return xml_escape(text); }

std::string severity_badge(Severity severity) {
  return fmt::format(R"(<span class="sev sev-{0}">{0}</span>)", to_string(severity));
}

std::string model_anchor(std::size_t index) { return fmt::format("model-{}", index + 1); }

void summary_table(const ReportDocument& document, std::ostream& out) {
  out << "<section id=\"summary\">\n<h2>Summary</h2>\n<table>\n<tr><th>file</th><th>model_type</th>"
         "<th class=\"num\">RoPE setups</th><th class=\"num\">declared</th><th class=\"num\">target</th>"
         "<th class=\"num\">pairs out of range</th><th class=\"num\">errors</th><th class=\"num\">warnings</th>"
         "<th class=\"num\">info</th></tr>\n";
  for (std::size_t i = 0; i < document.models.size(); ++i) {
    const ModelReport& m = *document.models[i];
    const auto link = fmt::format(R"(<a href="#{}">{}</a>)", model_anchor(i), h(m.check.path));
    if (m.check.error) {
      out << fmt::format("<tr><td>{}</td><td colspan=\"8\" class=\"unreadable\">could not be read</td></tr>\n", link);
      continue;
    }
    out << fmt::format(
        "<tr><td>{}</td><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>"
        "<td class=\"num{}\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td></tr>\n",
        link, h(m.check.model.model_type.value), m.check.model.setups.size(),
        m.check.model.max_position_embeddings.value, m.check.audit.target_tokens,
        m.out_of_range_pairs > 0 ? " oor" : "", m.out_of_range_pairs, m.counts.errors, m.counts.warnings,
        m.counts.infos);
  }
  out << "</table>\n</section>\n";
}

void settings_rows(const std::vector<SettingRow>& rows, std::ostream& out) {
  for (const auto& row : rows)
    out << fmt::format("<tr><td>{}</td><td>{}</td><td class=\"muted\">{}</td></tr>\n", h(row.name), h(row.value),
                       h(row.from.describe()));
}

void settings_details(const Model& model, std::ostream& out) {
  out << "<details>\n<summary>Normalized settings and where each value came from</summary>\n<table>\n"
         "<tr><th>setting</th><th>value</th><th>from</th></tr>\n";
  settings_rows(model_settings(model), out);
  for (const auto& setup : model.setups) {
    out << fmt::format("<tr><th colspan=\"3\">setup {}: layers {}</th></tr>\n", h(setup.name),
                       h(index_ranges(setup.layers)));
    settings_rows(setup_settings(setup), out);
  }
  out << "</table>\n";
  if (!model.notes.empty()) {
    out << "<ul>\n";
    for (const auto& note : model.notes) out << "<li>" << h(note) << "</li>\n";
    out << "</ul>\n";
  }
  out << "</details>\n";
}

constexpr std::string_view kWavelengthCaption =
    "Blue dots: the wavelength 2π/θᵢ of each pair before scaling. Rings: the wavelength after scaling, as "
    "<code>table</code> prints it, coloured by band (kept, interpolated, scaled). Lines mark the trained, "
    "extended, declared and target lengths; shaded pairs turn at the target through angles never seen in training.";
constexpr std::string_view kAngleCaption =
    "Per pair: the largest angle reached in training, max over phases of (L<sub>p</sub> − 1)·θ<sub>p,i</sub>, "
    "and the angle needed at the target, (min(T, W) − 1)·θ′ᵢ(T). A pair that never completed a turn in training "
    "and needs more is out of range; the shaded bar is its unseen arc.";

void setup_section(const TableReport& table, const SetupTable& st, std::ostream& out) {
  const std::string heading = setup_heading(*table.model, st);
  const auto newline = heading.find('\n');
  out << fmt::format("<h3>{}</h3>\n<p>{}</p>\n<ul>\n<li>{}</li>\n<li>{}</li>\n", h(heading.substr(0, newline)),
                     h(heading.substr(newline + 1)), h(band_summary(st)), h(attention_summary(st)));
  if (st.audit)
    out << fmt::format("<li class=\"{}\">{}</li>\n", st.audit->out_of_range_pairs.empty() ? "" : "oor",
                       h(audit_summary(st, *table.target_tokens)));
  if (st.audit && st.audit->trained_length_noted) out << "<li>" << h(st.audit->trained_sentence) << "</li>\n";
  out << "</ul>\n<figure>\n" << wavelength_chart(table, st).element();
  out << "<figcaption>" << kWavelengthCaption << "</figcaption>\n</figure>\n";
  if (st.audit) {
    out << "<figure>\n" << angle_chart(table, st).element();
    out << "<figcaption>" << kAngleCaption << "</figcaption>\n</figure>\n";
  }
}

// Pairs where a view's frequency differs from the first view's, per view.
std::map<std::size_t, std::vector<int>> differing_from_first(const EngineReport& report, int setup) {
  std::map<std::size_t, std::vector<int>> pairs;
  for (const auto& d : report.comparison.frequencies)
    if (d.setup == setup && d.view_a == 0) pairs[d.view_b].push_back(d.pair);
  return pairs;
}

void engine_table(const Model& model, const EngineReport& report, std::size_t setup, std::ostream& out) {
  if (model.setups.size() > 1) out << fmt::format("<h4>setup {}</h4>\n", h(model.setups[setup].name));
  out << "<table>\n<tr><th>view</th><th>method</th><th class=\"num\">factor</th><th class=\"num\">rope magnitude</th>"
         "<th class=\"num\">softmax ×</th><th class=\"num\">maximum length</th><th>pairs differing from [1] "
         "(&gt; 1e-4 relative)</th></tr>\n";
  const auto differing = differing_from_first(report, static_cast<int>(setup));
  for (std::size_t v = 0; v < report.views.size(); ++v) {
    const EngineView& view = report.views[v];
    if (setup >= view.setups.size()) continue;
    const EngineSetupView& s = view.setups[setup];
    const auto found = differing.find(v);
    out << fmt::format(
        "<tr><td title=\"follows {}\">[{}] {}</td><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>"
        "<td class=\"num\">{}</td><td class=\"num\">{}</td><td{}>{}</td></tr>\n",
        h(view.follows), v + 1, h(view_title(view)), to_string(s.method), fixed(s.factor, 5),
        fixed(s.rope_magnitude, 5), fixed(s.softmax_multiplier, 5), h(limit_text(view.length)),
        found == differing.end() ? "" : " class=\"oor\"",
        v == 0                     ? "(reference)"
        : found == differing.end() ? "none"
                                   : h(index_ranges(found->second)));
  }
  out << "</table>\n";
}

void engines_section(const Model& model, const EngineReport& report, std::ostream& out) {
  out << fmt::format("<h3>Engines at {} tokens</h3>\n", report.target_tokens);
  if (model.setups.empty()) {
    out << "<p>No rotary layers: every engine runs the same positions.</p>\n";
    return;
  }
  for (std::size_t s = 0; s < model.setups.size(); ++s) engine_table(model, report, s, out);
  if (report.comparison.lengths_differ) out << "<p class=\"oor\">The engines derive different maximum lengths.</p>\n";
  std::ostringstream text;
  render_engines_text(model, report, text);
  out << "<details>\n<summary>Every view in full (as <code>table --engine</code> prints it)</summary>\n<pre>"
      << h(text.str()) << "</pre>\n</details>\n";
}

std::string location_text(const Location& where) {
  std::string text = where.pointer.empty() ? (where.flag.empty() ? "(document)" : "flag " + where.flag) : where.pointer;
  if (where.line) text += fmt::format(" (line {}, column {})", *where.line, where.column.value_or(1));
  return text;
}

void findings_section(const FileResult& file, std::ostream& out) {
  out << fmt::format("<h3>Findings ({})</h3>\n", file.diagnostics.size());
  if (file.diagnostics.empty()) out << "<p>No findings.</p>\n";
  for (Severity severity : {Severity::error, Severity::warning, Severity::info}) {
    std::string items;
    int count = 0;
    for (const auto& d : file.diagnostics) {
      if (d.severity != severity) continue;
      ++count;
      items += fmt::format(
          "<div class=\"finding\">{} <a href=\"#rule-{}\"><code>{}</code></a> {} <span class=\"muted\">at {}</span>"
          "<p>{}</p>{}{}</div>\n",
          severity_badge(d.severity), h(d.code), h(d.code), h(d.name), h(location_text(d.where)), h(d.message),
          d.help.empty() ? "" : fmt::format("<p class=\"muted\">help: {}</p>", h(d.help)),
          d.help_command.empty() ? "" : fmt::format("<pre>{}</pre>", h(command_text(d.help_command, {80, 0, 2}))));
    }
    if (count > 0) out << fmt::format("<h4>{} ({})</h4>\n{}", to_string(severity), count, items);
  }
}

// With --memory: fit's text, as `ropelens fit` prints it.
void fit_section(const ModelReport& m, std::ostream& out) {
  if (m.fit_refused) {
    out << fmt::format("<h3>Fit</h3>\n<p class=\"unreadable\">{}</p>\n", h(*m.fit_refused));
    return;
  }
  if (!m.fit) return;
  std::ostringstream text;
  render_fit_text(*m.fit, text);
  out << fmt::format("<h3>Fit in {}</h3>\n<pre>{}</pre>\n",
                     h(format_bytes(static_cast<std::int64_t>(m.fit->memory_bytes))), h(text.str()));
}

void model_section(std::size_t index, const ModelReport& m, std::ostream& out) {
  const FileResult& file = m.check;
  out << fmt::format("<section class=\"model\" id=\"{}\">\n<h2>{}</h2>\n", model_anchor(index), h(file.path));
  if (file.error) {
    out << fmt::format("<p class=\"unreadable\">{}</p>\n</section>\n", h(*file.error));
    return;
  }
  const Model& model = file.model;
  out << fmt::format("<p>{} · positional scheme {} · {} layers · declared {} tokens · audited at {} tokens · {}</p>\n",
                     h(model.model_type.value), to_string(model.scheme), model.num_layers.value,
                     model.max_position_embeddings.value, file.audit.target_tokens, h(kSemantics));
  settings_details(model, out);
  std::ostringstream schemes;
  render_scheme_text(m.table.schemes, schemes);
  if (!schemes.str().empty()) out << "<pre>" << h(schemes.str()) << "</pre>\n";
  if (model.setups.empty())
    out << fmt::format("<p>No rotary layers: positional scheme {}.</p>\n", to_string(model.scheme));
  render_report_setups_html(m.table, out);
  if (file.engines) engines_section(model, *file.engines, out);
  fit_section(m, out);
  findings_section(file, out);
  out << "</section>\n";
}

void rule_docs_section(const ReportDocument& document, std::ostream& out) {
  if (document.rule_docs.empty()) return;
  out << "<section id=\"rules\">\n<h2>Rules with findings</h2>\n";
  render_rule_docs_html(document.rule_docs, out);
  out << "</section>\n";
}

}  // namespace

void render_report_setups_html(const TableReport& table, std::ostream& out) {
  for (const auto& st : table.setups) setup_section(table, st, out);
}

void render_rule_docs_html(const std::vector<RuleDocEntry>& docs, std::ostream& out) {
  for (const auto& doc : docs)
    out << fmt::format("<article class=\"rule-doc\" id=\"rule-{}\">\n{}</article>\n", h(doc.code),
                       markdown_to_html(doc.markdown, 2));
}

void render_report_html(const ReportDocument& document, std::ostream& out) {
  out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
         "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
         "<title>ropelens report</title>\n<style>"
      << kStyle << "</style>\n</head>\n<body>\n";
  const CheckCounts& c = document.counts;
  out << fmt::format(
      "<h1>ropelens report</h1>\n<p class=\"muted\">ropelens {} · {} file{} · {} error{}, {} warning{}, "
      "{} info{}</p>\n",
      ROPELENS_VERSION, c.files, c.files == 1 ? "" : "s", c.errors, c.errors == 1 ? "" : "s", c.warnings,
      c.warnings == 1 ? "" : "s", c.infos,
      c.unreadable_files > 0 ? fmt::format(" · {} could not be read", c.unreadable_files) : "");
  if (document.models.size() > 1) summary_table(document, out);
  for (std::size_t i = 0; i < document.models.size(); ++i) model_section(i, *document.models[i], out);
  rule_docs_section(document, out);
  out << "</body>\n</html>\n";
}

}  // namespace ropelens
