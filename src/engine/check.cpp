// The check pipeline: each path read, normalized, audited at its target, and run through the catalog.
#include <algorithm>

#include <fmt/format.h>

#include "ropelens/engine.hpp"
#include "ropelens/normalize.hpp"

namespace ropelens {
namespace {

void locate(const std::string& text, Location& where) {
  TextPosition position;
  if (locate_pointer(text, where.pointer, position)) {
    where.line = position.line;
    where.column = position.column;
  }
}

FileResult unreadable(const InputError& e) {
  FileResult failed;
  failed.path = e.file();
  failed.error = e.what();
  return failed;
}

}  // namespace

void CheckCounts::add(const FileResult& file) {
  ++files;
  if (file.error) ++unreadable_files;
  for (const auto& d : file.diagnostics) {
    if (d.severity == Severity::error) ++errors;
    else if (d.severity == Severity::warning) ++warnings;
    else ++infos;
  }
}

CheckCounts CheckReport::counts() const {
  return {static_cast<int>(files.size()), errors, warnings, infos, unreadable_files};
}

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

CheckCounts check_paths_streaming(const std::vector<std::string>& paths, const CheckOptions& options,
                                  const std::function<void(FileResult&&)>& on_file) {
  CheckCounts counts;
  std::vector<std::string> files;
  auto emit = [&](FileResult&& result) {
    counts.add(result);
    on_file(std::move(result));
  };
  std::vector<FileResult> unreadable_paths;
  for (const auto& path : paths) {
    try {
      auto found = expand_paths(path);
      files.insert(files.end(), found.begin(), found.end());
    } catch (const InputError& e) {
      unreadable_paths.push_back(unreadable(e));
    }
  }
  std::sort(files.begin(), files.end());
  files.erase(std::unique(files.begin(), files.end()), files.end());
  for (auto& failed : unreadable_paths) emit(std::move(failed));
  for (const auto& file : files) {
    try {
      LoadedModel loaded = load_model(file, options.edits);
      emit(check_model(std::move(loaded.model), loaded.text, options));
    } catch (const InputError& e) {
      emit(unreadable(e));
    }
  }
  return counts;
}

CheckReport check_paths(const std::vector<std::string>& paths, const CheckOptions& options) {
  CheckReport report;
  report.target_tokens = options.target_tokens.value_or(0);
  CheckCounts counts = check_paths_streaming(paths, options, [&](FileResult&& f) { report.files.push_back(std::move(f)); });
  report.errors = counts.errors;
  report.warnings = counts.warnings;
  report.infos = counts.infos;
  report.unreadable_files = counts.unreadable_files;
  return report;
}

}  // namespace ropelens
