// The check pipeline: each path read, normalized, audited at its target, and run through the catalog.
#include <algorithm>

#include <fmt/format.h>

#include "ropelens/engine.hpp"
#include "ropelens/normalize.hpp"
#include "ropelens/model_loader.hpp"

namespace ropelens {
namespace {

void locate(const std::string& text, Location& where) {
  TextPosition position;
  if (locate_pointer(text, where.pointer, position)) {
    where.line = position.line;
    where.column = position.column;
  }
}

void count(CheckReport& report, const FileResult& file) {
  if (file.error) ++report.unreadable_files;
  for (const auto& d : file.diagnostics) {
    if (d.severity == Severity::error) ++report.errors;
    else if (d.severity == Severity::warning) ++report.warnings;
    else ++report.infos;
  }
}

}  // namespace

FileResult check_model(Model model, const std::string& text, const CheckOptions& options) {
  FileResult result;
  result.path = model.source;
  result.target_tokens = options.target_tokens.value_or(model.max_position_embeddings.value);
  AuditOptions audit_options = options.audit;
  audit_options.target_tokens = std::max<std::int64_t>(result.target_tokens, 1);
  result.audit = audit_model(model, audit_options);
  std::vector<RopeTable> tables;
  for (const auto& setup : model.setups) tables.push_back(compute_rope_table(setup));
  Context context{model, tables, result.audit, result.target_tokens};
  result.diagnostics = run_rules(context, options.selection);
  for (auto& d : result.diagnostics) {
    locate(text, d.where);
    for (auto& r : d.related) locate(text, r);
  }
  result.model = std::move(model);
  return result;
}

CheckReport check_paths(const std::vector<std::string>& paths, const CheckOptions& options) {
  CheckReport report;
  report.target_tokens = options.target_tokens.value_or(0);
  for (const auto& path : paths) {
    std::vector<std::string> files;
    try {
      files = expand_paths(path);
    } catch (const InputError& e) {
      FileResult failed;
      failed.path = e.file();
      failed.error = e.what();
      count(report, failed);
      report.files.push_back(std::move(failed));
      continue;
    }
    for (const auto& file : files) {
      try {
        LoadedModel loaded = load_model(file, options.edits);
        report.files.push_back(check_model(std::move(loaded.model), loaded.text, options));
      } catch (const InputError& e) {
        FileResult failed;
        failed.path = e.file();
        failed.error = e.what();
        report.files.push_back(std::move(failed));
      }
      count(report, report.files.back());
    }
  }
  std::stable_sort(report.files.begin(), report.files.end(),
                   [](const FileResult& a, const FileResult& b) { return a.path < b.path; });
  return report;
}

}  // namespace ropelens
