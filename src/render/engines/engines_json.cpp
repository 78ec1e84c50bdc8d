// Engine views as JSON (schema_version 1): every view, every pair, and the differences above the threshold.
#include <nlohmann/json.hpp>

#include "render/writers/json_writer.hpp"

#include "ropelens/engines/engine_report.hpp"

namespace ropelens {
namespace {

using nlohmann::json;

json optional_tokens(const std::optional<std::int64_t>& value) { return value ? json(*value) : json(nullptr); }
json optional_number(const std::optional<double>& value) { return value ? json(*value) : json(nullptr); }

json length_json(const LengthLimit& limit) {
  return {{"limit_tokens", optional_tokens(limit.limit_tokens)},
          {"default_tokens", optional_tokens(limit.default_tokens)},
          {"derivation", limit.derivation},
          {"length_key", limit.length_key},
          {"beyond", std::string(to_string(limit.beyond))},
          {"message", limit.message},
          {"override", limit.override_how}};
}

json engine_setup_json(const EngineSetupView& s) {
  return {{"setup", s.setup},
          {"method", std::string(to_string(s.method))},
          {"factor", s.factor},
          {"pairing", std::string(to_string(s.pairing))},
          {"rope_magnitude", s.rope_magnitude},
          {"softmax_multiplier", s.softmax_multiplier},
          {"effective_theta", optional_number(s.effective_theta)},
          {"correction_range", s.correction_low ? json::array({*s.correction_low, *s.correction_high}) : json(nullptr)},
          {"factor_switch", std::string(to_string(s.factor_switch))},
          {"long_factors", s.long_factors},
          {"recomputed_per_sequence", s.recomputed_per_sequence},
          {"inv_freq", s.inv_freq},
          {"notes", texts(s.notes)}};
}

json gguf_json(const GgufConversion& g) {
  json keys = json::array();
  for (const auto& [key, value] : g.keys) keys.push_back({{"key", key}, {"value", value}});
  json lost = json::array();
  for (const auto& l : g.lost) lost.push_back({{"pointer", l.pointer}, {"what", l.what}});
  return {{"from_gguf", g.from_gguf},
          {"arch", g.arch},
          {"failure", g.failure ? json(*g.failure) : json(nullptr)},
          {"keys", keys},
          {"tensors", g.tensors},
          {"lost", lost},
          {"notes", g.notes}};
}

json view_json(const EngineView& view) {
  json setups = json::array();
  for (const auto& s : view.setups) setups.push_back(engine_setup_json(s));
  return {{"label", view.label},
          {"engine", std::string(to_string(engine_of(view.version)))},
          {"same_as", view.same_as},
          {"follows", view.follows},
          {"length", length_json(view.length)},
          {"setups", setups},
          {"gguf", view.gguf ? gguf_json(*view.gguf) : json(nullptr)},
          {"notes", texts(view.notes)}};
}

json difference_json(const EngineReport& report, const PairDifference& d) {
  return {{"setup", d.setup},
          {"pair", d.pair},
          {"a", report.views[d.view_a].label},
          {"b", report.views[d.view_b].label},
          {"inv_freq_a", d.inv_freq_a},
          {"inv_freq_b", d.inv_freq_b},
          {"relative", d.relative},
          {"ratio", d.ratio()}};
}

json comparison_json(const EngineReport& report) {
  const auto& c = report.comparison;
  json frequencies = json::array();
  for (const auto& d : c.frequencies) frequencies.push_back(difference_json(report, d));
  json magnitudes = json::array();
  for (const auto& m : c.magnitudes)
    magnitudes.push_back({{"setup", m.setup},
                          {"kind", m.softmax ? "softmax_multiplier" : "rope_magnitude"},
                          {"a", report.views[m.view_a].label},
                          {"b", report.views[m.view_b].label},
                          {"value_a", m.value_a},
                          {"value_b", m.value_b}});
  return {{"threshold", kEngineRelativeThreshold},
          {"frequency_differences", frequencies},
          {"worst_frequency", c.worst_frequency ? difference_json(report, *c.worst_frequency) : json(nullptr)},
          {"max_frequency_relative", c.max_frequency_relative},
          {"magnitude_differences", magnitudes},
          {"lengths_differ", c.lengths_differ}};
}

}  // namespace

json engines_to_json(const Model& model, const EngineReport& report) {
  json views = json::array();
  for (const auto& view : report.views) views.push_back(view_json(view));
  return {{"schema_version", 1},
          {"source", model.source},
          {"model_type", model.model_type.value},
          {"target_tokens", report.target_tokens},
          {"views", views},
          {"comparison", comparison_json(report)}};
}

void render_engines_json(const Model& model, const EngineReport& report, std::ostream& out) {
  out << render_detail::pretty_json(engines_to_json(model, report)) << "\n";
}

}  // namespace ropelens
