// suggest as JSON (schema_version 1).
#include <nlohmann/json.hpp>

#include "render/writers/json_writer.hpp"

#include "ropelens/render/render.hpp"
#include "ropelens/suggest/suggest.hpp"

namespace ropelens {
namespace {

using nlohmann::ordered_json;

ordered_json suggestion_json(const Suggestion& s) {
  ordered_json edits = ordered_json::array();
  for (const auto& edit : s.edits) edits.push_back({{"pointer", edit.pointer}, {"value", edit.value}});
  ordered_json snippets = ordered_json::array();
  for (const auto& snippet : s.snippets)
    snippets.push_back({{"engine", std::string(to_string(snippet.engine))},
                        {"versions", snippet.versions},
                        {"command", snippet.command},
                        {"notes", snippet.notes}});
  ordered_json remaining = ordered_json::array();
  for (const auto& finding : s.remaining)
    remaining.push_back({{"code", finding.code},
                         {"severity", std::string(to_string(finding.severity))},
                         {"pointer", finding.pointer},
                         {"message", finding.message}});
  ordered_json limits = ordered_json::object();
  for (const auto& [label, tokens] : s.engine_limits) limits[label] = tokens;
  const ShortInputEffect& e = s.short_inputs;
  return {{"method", std::string(to_string(s.method))},
          {"value", s.value},
          {"change", s.change},
          {"verified", s.verified},
          {"check_command", s.check_command},
          {"remaining", remaining},
          {"still_out_of_range", s.still_out_of_range},
          {"edits", edits},
          {"config_fragment", s.config_fragment},
          {"short_inputs",
           {{"static", true},
            {"pairs_changed", e.pairs_changed},
            {"pairs_total", e.pairs_total},
            {"max_ratio", e.max_ratio},
            {"magnitude_before", e.magnitude_before},
            {"magnitude_after", e.magnitude_after}}},
          {"engine_limits_tokens", limits},
          {"snippets", snippets}};
}

}  // namespace

void render_suggest_json(const SuggestReport& report, std::ostream& out) {
  ordered_json suggestions = ordered_json::array();
  for (const auto& s : report.suggestions) suggestions.push_back(suggestion_json(s));
  ordered_json doc = {{"schema_version", 1},
                      {"source", report.source},
                      {"model_type", report.model_type},
                      {"target_tokens", report.target_tokens},
                      {"original_tokens", report.original_tokens},
                      {"original_from", report.original_from},
                      {"trained_sentence", report.trained_sentence},
                      {"out_of_range_before", report.out_of_range_before},
                      {"suggestions", suggestions},
                      {"notes", report.notes}};
  out << render_detail::pretty_json(doc) << "\n";
}

}  // namespace ropelens
