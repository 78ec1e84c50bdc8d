// The check pipeline: each path read, normalized, audited at its target, and run through the catalog.
#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <thread>

#include <fmt/format.h>

#include "ropelens/engine.hpp"
#include "ropelens/engines.hpp"
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

FileResult check_file(const std::string& file, const CheckOptions& options) {
  try {
    LoadedModel loaded = load_model(file, options.edits);
    if (!options.edits.empty()) record_method_overrides(loaded.model, load_model(file).model);
    return check_model(std::move(loaded.model), loaded.text, options);
  } catch (const InputError& e) {
    return unreadable(e);
  } catch (const std::exception& e) {  // a defect, reported per file rather than ending the scan
    return unreadable(InputError(file, std::string("internal error: ") + e.what()));
  }
}

// Checks files on worker threads and hands results back in order. At most kLookahead results wait to be
// emitted, so memory does not grow with the number of files.
class OrderedChecker {
 public:
  static constexpr std::size_t kLookahead = 64;

  OrderedChecker(const std::vector<std::string>& files, const CheckOptions& options)
      : files_(files), options_(options), ring_(kLookahead) {}

  void run(unsigned worker_count, const std::function<void(FileResult&&)>& emit) {
    std::vector<std::thread> workers;
    for (unsigned w = 0; w < worker_count; ++w) workers.emplace_back([this] { work(); });
    for (std::size_t i = 0; i < files_.size(); ++i) emit(take(i));
    for (auto& worker : workers) worker.join();
  }

 private:
  void work() {
    for (;;) {
      std::size_t index;
      {
        std::unique_lock lock(mutex_);
        space_.wait(lock, [&] { return next_claim_ == files_.size() || next_claim_ < next_emit_ + kLookahead; });
        if (next_claim_ == files_.size()) return;
        index = next_claim_++;
      }
      FileResult result = check_file(files_[index], options_);
      std::lock_guard lock(mutex_);
      ring_[index % kLookahead] = std::move(result);
      ready_.notify_all();
    }
  }

  FileResult take(std::size_t index) {
    std::unique_lock lock(mutex_);
    auto& slot = ring_[index % kLookahead];
    ready_.wait(lock, [&] { return slot.has_value(); });
    FileResult result = std::move(*slot);
    slot.reset();
    ++next_emit_;
    space_.notify_all();
    return result;
  }

  const std::vector<std::string>& files_;
  const CheckOptions& options_;
  std::vector<std::optional<FileResult>> ring_;
  std::mutex mutex_;
  std::condition_variable ready_;
  std::condition_variable space_;
  std::size_t next_claim_ = 0;
  std::size_t next_emit_ = 0;
};

unsigned worker_count_for(std::size_t files) {
  unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  if (files < 16 || cores == 1) return 0;
  return std::min(cores, 8u);
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
  if (!options.engines.empty())
    result.engines = std::make_shared<const EngineReport>(build_engine_report(model, options.engines, result.target_tokens));
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
  if (unsigned workers = worker_count_for(files.size()); workers > 0) {
    OrderedChecker(files, options).run(workers, emit);
  } else {
    for (const auto& file : files) emit(check_file(file, options));
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
