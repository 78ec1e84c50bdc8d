// The table of per-pair frequencies, already computed: renderers only format it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ropelens/audit/audit.hpp"
#include "ropelens/memory/kv_cache.hpp"
#include "ropelens/model/model.hpp"
#include "ropelens/rope/rope.hpp"
#include "ropelens/report/scheme_report.hpp"

namespace ropelens {

// The implementation whose semantics the numbers follow.
inline constexpr const char* kSemantics = "transformers v5 modeling_rope_utils, float64";

struct PairRow {
  int pair = 0;
  double base_inv_freq = 0.0;
  double inv_freq = 0.0;
  std::optional<double> scale;                   // base / effective; none for zero-frequency pairs
  std::optional<double> base_wavelength_tokens;  // 2*pi / base, before scaling
  std::optional<double> wavelength_tokens;       // 2*pi / effective
  double turns_original = 0.0;                   // (L - 1) * theta' / 2pi within the original (pre-extension) length
  double turns_declared = 0.0;
  std::optional<double> turns_target;
  Band band = Band::kept;
  std::optional<PairAudit> audit;  // with --target
};

struct BandSummary {
  int kept = 0;
  int scaled = 0;
  int interpolated = 0;
  int zero = 0;
  std::vector<int> interpolated_pairs;
  std::vector<double> interpolated_scales;
  std::optional<double> uniform_scale;  // the divisor of the scaled band when it is the same for every pair
};

struct SetupTable {
  int setup = 0;
  RopeTable table;
  std::int64_t original_tokens = 0;  // the length "turns_original" counts over
  BandSummary summary;
  std::vector<PairRow> rows;  // the selected pairs
  std::optional<SetupAudit> audit;
};

struct TableReport {
  const Model* model = nullptr;
  std::optional<std::int64_t> target_tokens;
  std::optional<std::int64_t> seq_len;
  std::vector<SetupTable> setups;
  SchemeReport schemes;
  std::optional<KvCacheReport> kv_cache;  // at the target
};

struct TableRequest {
  std::optional<std::int64_t> target_tokens;
  std::optional<std::int64_t> seq_len;
  std::vector<int> pairs;    // empty: all
  TrainingHistory training;  // used when target_tokens is set
  // An audit already made at target_tokens (check_model's): the rows show it rather than auditing again.
  const Audit* audit = nullptr;
  std::optional<KvDtype> kv_dtype;  // none: the config's dtype
};

TableReport build_table_report(const Model& model, const TableRequest& request);

}  // namespace ropelens
