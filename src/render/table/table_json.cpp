#include <nlohmann/json.hpp>

#include "render/writers/json_writer.hpp"

#include "ropelens/render/render.hpp"

namespace ropelens {
namespace {

using nlohmann::json;

json optional_json(const std::optional<double>& value) { return value ? json(*value) : json(nullptr); }

json row_json(const PairRow& row) {
  json out = {{"pair", row.pair},
              {"base_inv_freq", row.base_inv_freq},
              {"inv_freq", row.inv_freq},
              {"scale", optional_json(row.scale)},
              {"base_wavelength_tokens", optional_json(row.base_wavelength_tokens)},
              {"wavelength_tokens", optional_json(row.wavelength_tokens)},
              {"turns_original", row.turns_original},
              {"turns_declared", row.turns_declared},
              {"band", to_string(row.band)}};
  if (row.turns_target) out["turns_target"] = *row.turns_target;
  if (row.audit) {
    out["seen_deg"] = row.audit->seen_deg;
    out["needed_deg"] = row.audit->needed_deg;
    out["unseen_deg"] = row.audit->unseen_arc_deg;
    out["out_of_range"] = row.audit->out_of_range;
  }
  return out;
}

json table_setup_json(const Model& model, const SetupTable& st, std::optional<std::int64_t> target_tokens) {
  const RopeSetup& s = model.setups[static_cast<std::size_t>(st.setup)];
  json rows = json::array();
  for (const auto& row : st.rows) rows.push_back(row_json(row));
  json out = {{"name", s.name},
              {"layers", s.layers},
              {"attention", to_string(s.attention)},
              {"window_tokens", s.window_tokens ? json(s.window_tokens->value) : json(nullptr)},
              {"rope_type", to_string(s.type)},
              {"rope_theta", s.rope_theta.value},
              {"effective_theta", st.table.effective_theta},
              {"head_dim", s.head_dim.value},
              {"rotary_dim", s.rotary_dim},
              {"factor", st.table.factor},
              {"max_position_embeddings", s.max_position_embeddings.value},
              {"original_tokens", st.original_tokens},
              {"attention_factor", st.table.attention_factor},
              {"logit_scale", st.table.attention_factor * st.table.attention_factor},
              {"inv_freq", st.table.inv_freq},
              {"base_inv_freq", st.table.base_inv_freq},
              {"summary",
               {{"kept", st.summary.kept},
                {"scaled", st.summary.scaled},
                {"interpolated", st.summary.interpolated},
                {"zero", st.summary.zero},
                {"interpolated_pairs", st.summary.interpolated_pairs},
                {"interpolated_scales", st.summary.interpolated_scales},
                {"uniform_scale", optional_json(st.summary.uniform_scale)}}},
              {"pairs", rows}};
  if (st.table.correction_low) out["yarn_correction_range"] = {*st.table.correction_low, *st.table.correction_high};
  if (s.type == RopeType::longrope) out["long_factors"] = st.table.long_factors;
  if (st.audit) {
    const SetupAudit& a = *st.audit;
    out["audit"] = {{"target_tokens", *target_tokens},
                    {"attended_tokens", a.attended_tokens},
                    {"pretrain_tokens", a.pretrain_tokens},
                    {"extension_tokens", a.extension_tokens}};
    out["out_of_range_pairs"] = a.out_of_range_pairs;
  }
  return out;
}

}  // namespace

void render_table_json(const TableReport& report, std::ostream& out) {
  const Model& model = *report.model;
  json setups = json::array();
  for (const auto& st : report.setups) setups.push_back(table_setup_json(model, st, report.target_tokens));
  json doc = {{"schema_version", 1},
              {"source", model.source},
              {"model_type", model.model_type.value},
              {"scheme", to_string(model.scheme)},
              {"semantics", kSemantics},
              {"target_tokens", report.target_tokens ? json(*report.target_tokens) : json(nullptr)},
              {"seq_len", report.seq_len ? json(*report.seq_len) : json(nullptr)},
              {"setups", setups}};
  render_detail::move_members(doc, scheme_report_json(report.schemes));
  if (report.kv_cache) doc["kv_cache"] = kv_cache_json(*report.kv_cache);
  out << render_detail::pretty_json(doc) << '\n';
}

}  // namespace ropelens
