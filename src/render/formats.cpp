// Every command's formats, one map each.
#include "ropelens/render/formats.hpp"

#include <fmt/format.h>

#include <sstream>

#include "render/check/check_renderers.hpp"
#include "render/writers/terminal_text.hpp"

namespace ropelens {
namespace {

using namespace render_detail;

// Renderers that have no use for the terminal's options.
template <void (*render)(const TableReport&, std::ostream&)>
void ignoring_text_options(const TableReport& report, std::ostream& out, const TextOptions& /*text*/) {
  render(report, out);
}
template <std::unique_ptr<CheckRenderer> (*make)(std::ostream&)>
std::unique_ptr<CheckRenderer> ignoring_text_options(std::ostream& out, const TextOptions& /*text*/) {
  return make(out);
}

template <class Report, void (*render)(const Report&, std::ostream&)>
void without_text_options(const Report& report, std::ostream& out, const TextOptions& /*text*/) {
  render(report, out);
}
void engines_json(const Model& model, const EngineReport& report, std::ostream& out, const TextOptions& /*text*/) {
  render_engines_json(model, report, out);
}
constexpr Format<InspectRender> kInspect[] = {{"text", render_inspect_text},
                                              {"json", without_text_options<InspectReport, render_inspect_json>}};

constexpr Format<TableRender> kTable[] = {
    {"text", render_table_text},
    {"json", ignoring_text_options<render_table_json>},
    {"csv", ignoring_text_options<render_table_csv>},
    {"markdown", ignoring_text_options<render_table_markdown>},
    {"svg", ignoring_text_options<render_table_svg>},
};

constexpr Format<EngineRender> kEngines[] = {{"text", render_engines_text}, {"json", engines_json}};

constexpr Format<CheckRendererFactory> kCheck[] = {
    {"text", make_text_check_renderer},
    {"json", ignoring_text_options<make_json_check_renderer>},
    {"sarif", ignoring_text_options<make_sarif_check_renderer>},
    {"github", ignoring_text_options<make_github_check_renderer>},
};

constexpr Format<DiffRender> kDiff[] = {{"text", render_diff_text},
                                        {"json", without_text_options<DiffReport, render_diff_json>},
                                        {"markdown", without_text_options<DiffReport, render_diff_markdown>},
                                        {"sarif", without_text_options<DiffReport, render_diff_sarif>},
                                        {"github", without_text_options<DiffReport, render_diff_github>}};

constexpr Format<SuggestRender> kSuggest[] = {{"text", render_suggest_text},
                                              {"json", without_text_options<SuggestReport, render_suggest_json>}};

template <void (*render)(std::ostream&)>
void rules_without_text_options(std::ostream& out, const TextOptions& /*text*/) {
  render(out);
}

constexpr Format<RulesRender> kRules[] = {{"text", render_rules_text},
                                          {"json", rules_without_text_options<render_rules_json>},
                                          {"markdown", rules_without_text_options<render_rules_markdown>}};

constexpr Format<ExplainRender> kExplain[] = {{"text", render_explain_text}, {"json", render_explain_json}};

constexpr Format<FitRender> kFit[] = {{"text", render_fit_text},
                                      {"json", without_text_options<FitReport, render_fit_json>}};

}  // namespace

FormatMap<InspectRender> inspect_formats() { return kInspect; }
FormatMap<TableRender> table_formats() { return kTable; }
FormatMap<EngineRender> engine_formats() { return kEngines; }
FormatMap<CheckRendererFactory> check_formats() { return kCheck; }
FormatMap<DiffRender> diff_formats() { return kDiff; }
FormatMap<SuggestRender> suggest_formats() { return kSuggest; }
FormatMap<RulesRender> rules_formats() { return kRules; }
FormatMap<ExplainRender> explain_formats() { return kExplain; }
FormatMap<FitRender> fit_formats() { return kFit; }

std::string no_such_format(std::string_view name, std::string_view what, const std::vector<std::string>& available) {
  return fmt::format("--format {}: {} has no {} output; it prints {}", name, what, name, fmt::join(available, ", "));
}

}  // namespace ropelens
