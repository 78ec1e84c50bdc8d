#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "ropelens/report/table_report.hpp"

#include "ropelens/engines/kv_cache.hpp"

namespace ropelens {
namespace {

double turns_within(std::int64_t length_tokens, double inv_freq) {
  return static_cast<double>(length_tokens - 1) * inv_freq / kTwoPi;
}

// The pre-extension length: original_max_position_embeddings, or the declared length over a linear factor.
std::int64_t original_length(const RopeSetup& setup) {
  if (setup.original_max_position_embeddings) return setup.original_max_position_embeddings->value;
  if (setup.type == RopeType::linear && setup.factor && setup.factor->value > 1.0)
    return static_cast<std::int64_t>(
        std::llround(static_cast<double>(setup.max_position_embeddings.value) / setup.factor->value));
  return setup.max_position_embeddings.value;
}

BandSummary summarize(const RopeTable& table) {
  BandSummary summary;
  for (std::size_t i = 0; i < table.inv_freq.size(); ++i) {
    switch (table.bands[i]) {
      case Band::kept: ++summary.kept; break;
      case Band::zero: ++summary.zero; break;
      case Band::interpolated:
        ++summary.interpolated;
        summary.interpolated_pairs.push_back(static_cast<int>(i));
        summary.interpolated_scales.push_back(table.base_inv_freq[i] / table.inv_freq[i]);
        break;
      case Band::scaled: {
        ++summary.scaled;
        double scale = table.base_inv_freq[i] / table.inv_freq[i];
        if (summary.scaled == 1) summary.uniform_scale = scale;
        else if (summary.uniform_scale && std::abs(*summary.uniform_scale - scale) > 1e-9 * scale)
          summary.uniform_scale.reset();
        break;
      }
    }
  }
  return summary;
}

PairRow make_row(const SetupTable& st, const RopeSetup& setup, int pair, std::optional<std::int64_t> target) {
  auto i = static_cast<std::size_t>(pair);
  PairRow row;
  row.pair = pair;
  row.base_inv_freq = st.table.base_inv_freq[i];
  row.inv_freq = st.table.inv_freq[i];
  row.band = st.table.bands[i];
  if (row.base_inv_freq > 0.0) row.base_wavelength_tokens = kTwoPi / row.base_inv_freq;
  if (row.inv_freq > 0.0) {
    row.scale = row.base_inv_freq / row.inv_freq;
    row.wavelength_tokens = kTwoPi / row.inv_freq;
  }
  row.turns_original = turns_within(st.original_tokens, row.inv_freq);
  row.turns_declared = turns_within(setup.max_position_embeddings.value, row.inv_freq);
  if (target) {
    double inv_at_target = st.audit ? st.audit->at_target.inv_freq[i] : row.inv_freq;
    row.turns_target = turns_within(*target, inv_at_target);
  }
  if (st.audit) row.audit = st.audit->pairs[i];
  return row;
}

}  // namespace

namespace {

// Every requested pair must exist in some setup: a pair past the last one is a mistake, not an empty table.
void require_pairs_exist(const Model& model, const std::vector<int>& requested) {
  if (requested.empty()) return;
  int pairs = 0;
  for (const auto& setup : model.setups) pairs = std::max(pairs, setup.rotary_dim / 2);
  if (pairs == 0) throw std::invalid_argument("--pairs: the model has no rotary pairs");
  for (int p : requested)
    if (p >= pairs)
      throw std::invalid_argument(
          fmt::format("--pairs: pair {} does not exist; the model's pairs are 0–{}", p, pairs - 1));
}

}  // namespace

TableReport build_table_report(const Model& model, const TableRequest& request) {
  require_pairs_exist(model, request.pairs);
  TableReport report;
  report.model = &model;
  report.target_tokens = request.target_tokens;
  report.seq_len = request.seq_len;
  std::optional<Audit> audit;
  if (request.audit) {
    audit = *request.audit;
  } else if (request.target_tokens) {
    audit = audit_model(model, *request.target_tokens, request.training);
  }
  if (audit) {
    report.target_tokens = audit->target_tokens;
    report.kv_cache = kv_cache_at(model, {audit->target_tokens, request.kv_dtype});
  }
  report.schemes = build_scheme_report(model, report.target_tokens);
  for (std::size_t s = 0; s < model.setups.size(); ++s) {
    const RopeSetup& setup = model.setups[s];
    SetupTable st;
    st.setup = static_cast<int>(s);
    st.table = compute_rope_table(setup, request.seq_len);
    st.original_tokens = original_length(setup);
    st.summary = summarize(st.table);
    if (audit && !audit->setups[s].missing) st.audit = audit->setups[s];  // no pair figures from a made-up head_dim
    const int pairs = static_cast<int>(st.table.inv_freq.size());
    if (request.pairs.empty()) {
      for (int p = 0; p < pairs; ++p) st.rows.push_back(make_row(st, setup, p, report.target_tokens));
    } else {
      for (int p : request.pairs)
        if (p >= 0 && p < pairs) st.rows.push_back(make_row(st, setup, p, report.target_tokens));
    }
    report.setups.push_back(std::move(st));
  }
  return report;
}

}  // namespace ropelens
