// What `ropelens report` shows, made by the same functions as `check` (findings, audit, engine views) and
// `table` (the per-pair rows, from check's audit). The HTML renderer only formats it.
#pragma once

#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "ropelens/check/check.hpp"
#include "ropelens/report/fit_report.hpp"
#include "ropelens/report/table_report.hpp"

namespace ropelens {

struct ModelReport {
  FileResult check;              // as `check` makes it; only check.path and check.error when the file could not be read
  TableReport table;             // the rows of `table --target T`, built from check.audit; table.model is &check.model
  CheckCounts counts;            // this file's findings by severity
  int out_of_range_pairs = 0;    // over every setup
  std::optional<FitReport> fit;  // with --memory: the longest context that fits, per engine
  std::optional<std::string> fit_refused;  // with --memory, why there is no fit (the weights' size unknown)

  ModelReport() = default;
  ModelReport(const ModelReport&) = delete;  // table.model points into check
  ModelReport& operator=(const ModelReport&) = delete;
};

struct RuleDocEntry {
  std::string_view code;
  std::string_view name;
  std::string_view markdown;
};

struct ReportDocument {
  std::vector<std::unique_ptr<ModelReport>> models;  // in path order
  CheckCounts counts;                                // over every file
  std::vector<RuleDocEntry> rule_docs;               // the rules with findings, by code: the page embeds their docs
};

// The docs of the rules with these codes, by code (codes that name no rule are passed over).
std::vector<RuleDocEntry> rule_doc_entries(const std::set<std::string>& codes);
// One model's part of the report from a checked file.
std::unique_ptr<ModelReport> model_report(FileResult&& checked);
// Checks every file under the paths (as check_paths) and builds its part of the report.
ReportDocument build_report(const std::vector<std::string>& paths, const CheckOptions& options);

}  // namespace ropelens
