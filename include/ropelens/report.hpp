// Everything a renderer needs, already computed. Renderers only format these.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ropelens/audit.hpp"
#include "ropelens/diagnostic.hpp"
#include "ropelens/model.hpp"
#include "ropelens/rope.hpp"
#include "ropelens/scheme_report.hpp"

namespace ropelens {

// The implementation whose semantics the numbers follow.
inline constexpr const char* kSemantics = "transformers v5 modeling_rope_utils, float64";

struct PairRow {
  int pair = 0;
  double base_inv_freq = 0.0;
  double inv_freq = 0.0;
  std::optional<double> scale;  // base / effective; none for zero-frequency pairs
  std::optional<double> wavelength_tokens;  // 2*pi / effective
  double turns_original = 0.0;  // (L - 1) * theta' / 2pi within the original (pre-extension) length
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
};

struct TableRequest {
  std::optional<std::int64_t> target_tokens;
  std::optional<std::int64_t> seq_len;
  std::vector<int> pairs;  // empty: all
  AuditOptions audit;      // used when target_tokens is set
};

TableReport build_table_report(const Model& model, const TableRequest& request);

struct FileResult {
  std::string path;
  std::int64_t target_tokens = 0;
  std::optional<std::string> error;  // the file could not be read; nothing else is filled
  Model model;
  std::vector<Diagnostic> diagnostics;
  Audit audit;
  std::shared_ptr<const struct EngineReport> engines;  // with --engine
};

struct CheckCounts {
  int files = 0;
  int errors = 0;
  int warnings = 0;
  int infos = 0;
  int unreadable_files = 0;
  void add(const FileResult& file);
  void add(const CheckCounts& other);
};

struct CheckReport {
  std::int64_t target_tokens = 0;
  std::vector<FileResult> files;
  int errors = 0;
  int warnings = 0;
  int infos = 0;
  int unreadable_files = 0;
  CheckCounts counts() const;
};

}  // namespace ropelens
