#include "ropelens/report/scheme_report.hpp"

#include <fmt/format.h>

#include "ropelens/rope/rope.hpp"

namespace ropelens {
namespace {

std::optional<AlibiFacts> alibi_facts(const Model& model, std::optional<std::int64_t> target) {
  if (!model.alibi || model.alibi->num_heads < 1) return std::nullopt;
  AlibiFacts facts;
  facts.slopes = alibi_slopes(*model.alibi);
  if (target) facts.at_target = alibi_bias_at_target(facts.slopes, *target);
  return facts;
}

std::optional<T5Facts> t5_facts(const Model& model, std::optional<std::int64_t> target) {
  if (!model.t5) return std::nullopt;
  T5Facts facts;
  facts.num_buckets = model.t5->num_buckets.value;
  facts.max_distance = model.t5->max_distance.value;
  facts.bidirectional = model.t5->bidirectional;
  facts.spans = t5_bucket_spans(true, facts.num_buckets, facts.max_distance);
  facts.causal_spans = t5_bucket_spans(false, facts.num_buckets, facts.max_distance);
  if (target) {
    facts.last_bucket_distances_bidirectional =
        distances_in_last_bucket(*target, true, facts.num_buckets, facts.max_distance);
    facts.last_bucket_distances_causal =
        distances_in_last_bucket(*target, false, facts.num_buckets, facts.max_distance);
  }
  return facts;
}

std::optional<NopeFacts> nope_facts(const Model& model, std::optional<std::int64_t> target) {
  auto layers = model.nope_layers();
  if (layers.empty()) return std::nullopt;
  NopeFacts facts;
  facts.layers = layers;
  if (model.attention_chunk_size) facts.chunk_tokens = model.attention_chunk_size->value;
  if (model.nope_temperature && model.nope_temperature->enabled) {
    facts.temperature_tuning = true;
    facts.floor_scale = model.nope_temperature->floor_scale.value;
    facts.attn_scale = model.nope_temperature->attn_scale.value;
    facts.first_scaled_position = nope_first_scaled_position(facts.floor_scale);
    if (target)
      facts.temperature_at_target = nope_attention_temperature_at_target(*target, facts.floor_scale, facts.attn_scale);
  }
  return facts;
}

std::optional<MlaFacts> mla_facts(const Model& model) {
  if (!model.qk_nope_head_dim || model.setups.empty()) return std::nullopt;
  const RopeSetup& setup = model.setups.front();
  MlaFacts facts;
  facts.rope_dim = setup.rotary_dim;
  facts.nope_dim = model.qk_nope_head_dim->value;
  // DeepSeek's modeling code (not the RoPE utils): scaling *= mscale^2 with mscale = gm(factor, mscale_all_dim).
  const auto& all_dim = setup.yarn.mscale_all_dim;
  if (setup.type == RopeType::yarn && all_dim && all_dim->value != 0.0 && setup.factor) {
    double m = yarn_mscale(setup.factor->value, all_dim->value);
    facts.softmax_scale_multiplier = m * m;
  }
  return facts;
}

MropeAxis axis_for_pair(int pair, const std::vector<int>& section, bool interleaved) {
  int t = section.size() > 0 ? section[0] : 0;
  int h = section.size() > 1 ? section[1] : 0;
  int w = section.size() > 2 ? section[2] : 0;
  if (interleaved) {
    if (pair % 3 == 1 && pair < 3 * h) return MropeAxis::height;
    if (pair % 3 == 2 && pair < 3 * w) return MropeAxis::width;
    return MropeAxis::temporal;
  }
  if (pair < t) return MropeAxis::temporal;
  if (pair < t + h) return MropeAxis::height;
  return MropeAxis::width;
}

std::vector<MropeFacts> mrope_facts(const Model& model) {
  std::vector<MropeFacts> out;
  for (std::size_t s = 0; s < model.setups.size(); ++s) {
    const RopeSetup& setup = model.setups[s];
    if (setup.mrope_section.empty()) continue;
    MropeFacts facts{static_cast<int>(s), setup.mrope_section, setup.mrope_interleaved, {}};
    for (int p = 0; p < setup.rotary_dim / 2; ++p)
      facts.axis_of_pair.push_back(axis_for_pair(p, setup.mrope_section, setup.mrope_interleaved));
    out.push_back(std::move(facts));
  }
  return out;
}

std::optional<LearnedFacts> learned_facts(const Model& model, std::optional<std::int64_t> target) {
  if (model.scheme != PositionScheme::learned_absolute) return std::nullopt;
  LearnedFacts facts;
  facts.table_positions = model.max_position_embeddings.value;
  facts.row_offset = learned_position_row_offset(model.model_type.value);
  if (target) facts.target_has_row = learned_position_has_row(*target - 1, facts.table_positions);
  return facts;
}

void explain(const Model& model, const SchemeReport& r, std::optional<std::int64_t> target,
             std::vector<std::string>& out) {
  if (r.learned) {
    out.push_back(
        fmt::format("learned absolute positions: the table has {} rows (positions 0–{}); position {} "
                    "(index {}) has no row, so nothing past {} tokens can be computed",
                    r.learned->table_positions, r.learned->table_positions - 1, r.learned->table_positions + 1,
                    r.learned->table_positions, r.learned->table_positions));
  }
  if (model.scheme == PositionScheme::sinusoidal)
    out.push_back(
        "sinusoidal absolute positions: any position has an encoding, but nothing beyond the training length "
        "was ever trained on");
  if (r.alibi)
    out.push_back(
        "ALiBi: no position table and no hard limit; each head subtracts slope × distance from its logits, "
        "so far tokens fade smoothly (train short, test long), but distances beyond the training length were "
        "never seen");
  if (r.t5)
    out.push_back(
        fmt::format("T5 relative buckets: distances are exact up to {} (bidirectional) and log-spaced up to "
                    "{}; every distance beyond that shares the last bucket",
                    r.t5->num_buckets / 4, r.t5->max_distance));
  if (r.nope) {
    if (r.nope->chunk_tokens)
      out.push_back(
          fmt::format("RoPE layers attend within chunks of {} tokens and never see a relative distance beyond "
                      "{}; the {} NoPE layers attend globally and carry everything across chunks",
                      *r.nope->chunk_tokens, *r.nope->chunk_tokens - 1, r.nope->layers.size()));
    if (r.nope->temperature_tuning)
      out.push_back(
          fmt::format("NoPE layers scale queries by log1p(floor((pos+1)/{}))·{}+1: 1 up to position {}, "
                      "then growing with the log of the position",
                      r.nope->floor_scale, r.nope->attn_scale, r.nope->first_scaled_position - 1));
  }
  if (r.mla)
    out.push_back(
        fmt::format("MLA: only {} of {} query/key dims per head rotate (qk_rope_head_dim); the {} "
                    "qk_nope_head_dim dims carry no position",
                    r.mla->rope_dim, r.mla->rope_dim + r.mla->nope_dim, r.mla->nope_dim));
  if (!r.mrope.empty())
    out.push_back(
        "M-RoPE: pairs are split between temporal, height and width positions; a text-only input uses the "
        "same position on all three, so it is plain RoPE and the audit applies as is");
  if (model.scheme == PositionScheme::rope_2d)
    out.push_back("2-D rotary positions (GLM-1): the semantics live in remote code that ropelens cannot see");
  (void)target;
}

}  // namespace

std::string_view to_string(MropeAxis axis) {
  switch (axis) {
    case MropeAxis::temporal: return "temporal";
    case MropeAxis::height: return "height";
    case MropeAxis::width: return "width";
  }
  return "temporal";
}

SchemeReport build_scheme_report(const Model& model, std::optional<std::int64_t> target_tokens) {
  SchemeReport report;
  report.alibi = alibi_facts(model, target_tokens);
  report.t5 = t5_facts(model, target_tokens);
  report.nope = nope_facts(model, target_tokens);
  report.mla = mla_facts(model);
  report.mrope = mrope_facts(model);
  report.learned = learned_facts(model, target_tokens);
  explain(model, report, target_tokens, report.explanations);
  return report;
}

}  // namespace ropelens
