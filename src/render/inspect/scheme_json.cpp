#include <nlohmann/json.hpp>

#include "ropelens/render/render.hpp"

namespace ropelens {
namespace {

using nlohmann::json;

json spans_json(const std::vector<T5BucketSpan>& spans) {
  json out = json::array();
  for (const auto& s : spans)
    out.push_back({{"bucket", s.bucket},
                   {"direction", s.direction == T5Direction::past ? "past" : "future"},
                   {"first_distance", s.first_distance_tokens},
                   {"last_distance", s.last_distance_tokens ? json(*s.last_distance_tokens) : json(nullptr)}});
  return out;
}

}  // namespace

json scheme_report_json(const SchemeReport& r) {
  json out = json::object();
  if (r.alibi) {
    out["alibi"] = {{"slopes", r.alibi->slopes}};
    if (r.alibi->at_target) {
      const auto& t = *r.alibi->at_target;
      out["alibi"]["bias_at_target"] = {{"steepest", t.steepest_bias},
                                        {"shallowest", t.shallowest_bias},
                                        {"steepest_head", t.steepest_head},
                                        {"shallowest_head", t.shallowest_head}};
    }
  }
  if (r.t5) {
    out["t5_buckets"] = {{"num_buckets", r.t5->num_buckets},
                         {"max_distance", r.t5->max_distance},
                         {"bidirectional", r.t5->bidirectional},
                         {"spans", spans_json(r.t5->spans)},
                         {"causal_spans", spans_json(r.t5->causal_spans)}};
    if (r.t5->last_bucket_distances_bidirectional)
      out["t5_buckets"]["distances_in_last_bucket"] = {{"bidirectional", *r.t5->last_bucket_distances_bidirectional},
                                                       {"causal", *r.t5->last_bucket_distances_causal}};
  }
  if (r.nope) {
    out["nope"] = {{"layers", r.nope->layers}, {"temperature_tuning", r.nope->temperature_tuning}};
    if (r.nope->temperature_tuning) {
      out["nope"]["floor_scale"] = r.nope->floor_scale;
      out["nope"]["attn_scale"] = r.nope->attn_scale;
    }
    if (r.nope->temperature_at_target) out["nope"]["temperature_at_target"] = *r.nope->temperature_at_target;
    if (r.nope->chunk_tokens) out["nope"]["rope_layers_chunk_tokens"] = *r.nope->chunk_tokens;
  }
  if (r.mla) {
    out["mla"] = {{"qk_rope_head_dim", r.mla->rope_dim}, {"qk_nope_head_dim", r.mla->nope_dim}};
    if (r.mla->softmax_scale_multiplier) out["mla"]["softmax_scale_multiplier"] = *r.mla->softmax_scale_multiplier;
  }
  if (!r.mrope.empty()) {
    json list = json::array();
    for (const auto& m : r.mrope) {
      json axes = json::array();
      for (auto a : m.axis_of_pair) axes.push_back(to_string(a));
      list.push_back(
          {{"setup", m.setup}, {"section", m.section}, {"interleaved", m.interleaved}, {"axis_of_pair", axes}});
    }
    out["mrope"] = list;
  }
  if (r.learned) {
    out["learned_positions"] = {{"table_positions", r.learned->table_positions}, {"row_offset", r.learned->row_offset}};
    if (r.learned->target_has_row) out["learned_positions"]["target_has_row"] = *r.learned->target_has_row;
  }
  if (!r.explanations.empty()) out["scheme_notes"] = r.explanations;
  return out;
}

}  // namespace ropelens
