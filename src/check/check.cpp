// The check pipeline: each path read, normalized, audited at its target, and run through the catalog.
#include <algorithm>
#include <array>
#include <atomic>
#include <condition_variable>
#include <map>
#include <mutex>
#include <thread>

#include <fmt/format.h>

#include "ropelens/check.hpp"
#include "ropelens/engine_report.hpp"
#include "ropelens/log.hpp"
#include "ropelens/method_override.hpp"
#include "ropelens/model_log.hpp"
#include "ropelens/normalize.hpp"

namespace ropelens {
namespace {

// Line and column for each pointer of a file's findings; findings often share a pointer, so each is found once.
class PointerLocations {
 public:
  explicit PointerLocations(const std::string& text) : text_(text) {}

  void locate(Location& where) {
    auto [entry, added] = found_.try_emplace(where.pointer);
    if (added) {
      TextPosition position;
      if (locate_pointer(text_, where.pointer, position)) entry->second = position;
    }
    if (!entry->second) return;
    where.line = entry->second->line;
    where.column = entry->second->column;
  }

 private:
  const std::string& text_;
  std::map<std::string, std::optional<TextPosition>, std::less<>> found_;
};

FileResult unreadable(const InputError& e) {
  FileResult failed;
  failed.path = e.file();
  failed.error = e.what();
  return failed;
}

// Time spent per phase, summed over the worker threads; kept only when the -v log is on.
class PhaseTimes {
 public:
  enum Phase { load, check, render, kPhases };

  void add(Phase phase, double ms) { ns_[phase].fetch_add(static_cast<std::int64_t>(ms * 1e6), std::memory_order_relaxed); }
  double ms(Phase phase) const { return static_cast<double>(ns_[phase].load(std::memory_order_relaxed)) / 1e6; }

 private:
  std::array<std::atomic<std::int64_t>, kPhases> ns_{};
};

// Runs `work`, adding its time to `phase` when there are times to keep.
template <class Work> auto timed(PhaseTimes* times, PhaseTimes::Phase phase, const Work& work) {
  if (times == nullptr) return work();
  const logging::Stopwatch clock;
  auto result = work();
  times->add(phase, clock.elapsed_ms());
  return result;
}

FileResult check_file(const std::string& file, const CheckOptions& options, PhaseTimes* times) {
  try {
    LoadedModel loaded = timed(times, PhaseTimes::load, [&] { return load_model(file, options.edits); });
    log_loaded_model(loaded);
    FileResult result = timed(times, PhaseTimes::check, [&] { return check_model(std::move(loaded), options); });
    log_audit_target(result, options.target_tokens.has_value());
    return result;
  } catch (const InputError& e) {
    return unreadable(e);
  } catch (const std::exception& e) {  // a defect, reported per file rather than ending the scan
    return unreadable(InputError(file, std::string("internal error: ") + e.what()));
  }
}

RenderedFile render_result(const FileResult& result, const std::function<std::string(const FileResult&)>& render,
                           PhaseTimes* times) {
  RenderedFile rendered{result.path, result.error, {}, {}};
  rendered.counts.add(result);
  try {
    rendered.part = timed(times, PhaseTimes::render, [&] { return render(result); });
  } catch (const std::exception& e) {  // a defect; on a worker thread it would otherwise end the process
    rendered.error = InputError(result.path, std::string("internal error while rendering: ") + e.what()).what();
    rendered.counts.unreadable_files += result.error ? 0 : 1;
  }
  return rendered;
}

// Checks files on worker threads and hands what `check_one` makes of each back in order. Workers claim
// batches of files, so the threads meet once per batch rather than once per file; at most kBatchesAhead
// batches wait to be emitted, so memory does not grow with the number of files.
template <class Item>
class OrderedChecker {
 public:
  static constexpr std::size_t kBatchSize = 16;
  static constexpr std::size_t kBatchesAhead = 4;

  using CheckOne = std::function<Item(const std::string&)>;

  OrderedChecker(const std::vector<std::string>& files, const CheckOne& check_one)
      : files_(files), check_one_(check_one), batch_count_((files.size() + kBatchSize - 1) / kBatchSize),
        ring_(kBatchesAhead) {}

  void run(unsigned worker_count, const std::function<void(Item&&)>& emit) {
    std::vector<std::thread> workers;
    for (unsigned w = 0; w < worker_count; ++w) workers.emplace_back([this] { work(); });
    for (std::size_t batch = 0; batch < batch_count_; ++batch)
      for (auto& item : take(batch)) emit(std::move(item));
    for (auto& worker : workers) worker.join();
  }

 private:
  void work() {
    for (;;) {
      std::size_t batch;
      {
        std::unique_lock lock(mutex_);
        space_.wait(lock, [&] { return next_claim_ == batch_count_ || next_claim_ < next_emit_ + kBatchesAhead; });
        if (next_claim_ == batch_count_) return;
        batch = next_claim_++;
      }
      std::vector<Item> items = check_batch(batch);
      std::lock_guard lock(mutex_);
      ring_[batch % kBatchesAhead] = std::move(items);
      ready_.notify_one();  // only the emitting thread waits on ready_
    }
  }

  std::vector<Item> check_batch(std::size_t batch) const {
    const std::size_t first = batch * kBatchSize;
    const std::size_t last = std::min(first + kBatchSize, files_.size());
    std::vector<Item> items;
    items.reserve(last - first);
    for (std::size_t i = first; i < last; ++i) items.push_back(check_one_(files_[i]));
    return items;
  }

  std::vector<Item> take(std::size_t batch) {
    std::unique_lock lock(mutex_);
    auto& slot = ring_[batch % kBatchesAhead];
    ready_.wait(lock, [&] { return slot.has_value(); });
    std::vector<Item> items = std::move(*slot);
    slot.reset();
    ++next_emit_;
    space_.notify_all();
    return items;
  }

  const std::vector<std::string>& files_;
  const CheckOne& check_one_;
  const std::size_t batch_count_;
  std::vector<std::optional<std::vector<Item>>> ring_;
  std::mutex mutex_;
  std::condition_variable ready_;
  std::condition_variable space_;
  std::size_t next_claim_ = 0;  // batches
  std::size_t next_emit_ = 0;
};

unsigned worker_count_for(std::size_t files) {
  unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  if (files < 16 || cores == 1) return 0;
  return std::min(cores, 8u);
}

}  // namespace

void CheckCounts::add(const CheckCounts& other) {
  files += other.files;
  errors += other.errors;
  warnings += other.warnings;
  infos += other.infos;
  unreadable_files += other.unreadable_files;
}

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

FileResult check_model(LoadedModel loaded, const CheckOptions& options) {
  Model& model = loaded.model;
  FileResult result;
  result.path = model.source;
  const TrainingHistory history{loaded.as_trained ? &*loaded.as_trained : nullptr, options.training};
  result.audit = audit_model(model, resolve_target(options.target_tokens, model), history);
  std::vector<RopeTable> tables;
  for (const auto& setup : model.setups) tables.push_back(compute_rope_table(setup));
  Context context{model, tables, result.audit};
  context.unedited = loaded.as_trained ? &*loaded.as_trained : nullptr;
  result.diagnostics = run_rules(context, options.selection);
  PointerLocations locations(loaded.text);
  for (auto& d : result.diagnostics) {
    locations.locate(d.where);
    for (auto& r : d.related) locations.locate(r);
  }
  if (!options.engines.empty())
    result.engines = std::make_shared<const EngineReport>(build_engine_report(model, options.engines, result.audit.target_tokens));
  result.model = std::move(model);
  return result;
}

std::vector<Diagnostic> config_findings(const LoadedModel& loaded) {
  CheckOptions options;
  options.selection.select = {"CFG", "GGUF"};
  return check_model(loaded, options).diagnostics;
}

namespace {

void log_skipped(const std::vector<SkippedPath>& skipped) {
  for (const auto& entry : skipped)
    logging::log(entry.why == SkippedPath::Why::other_name ? logging::Level::debug : logging::Level::info, "skipped {}",
                 describe(entry));
}

// Every config under the paths, sorted and without duplicates; paths that cannot be expanded become
// unreadable results.
std::vector<std::string> files_under(const std::vector<std::string>& paths, std::vector<FileResult>& unreadable_paths) {
  logging::Stopwatch walk_time;
  const bool logging_skips = logging::enabled(logging::Level::info);
  std::vector<std::string> files;
  for (const auto& path : paths) {
    try {
      std::vector<SkippedPath> skipped;
      auto found = expand_paths(path, logging_skips ? &skipped : nullptr);
      log_skipped(skipped);
      logging::debug("{}: {} file(s) to check", path, found.size());
      files.insert(files.end(), found.begin(), found.end());
    } catch (const InputError& e) {
      unreadable_paths.push_back(unreadable(e));
    }
  }
  std::sort(files.begin(), files.end());
  files.erase(std::unique(files.begin(), files.end()), files.end());
  logging::info("found {} file(s) under {} path(s) in {:.1f} ms", files.size(), paths.size(), walk_time.elapsed_ms());
  return files;
}

void log_phase_times(const PhaseTimes* times, std::size_t files, const logging::Stopwatch& check_time) {
  if (times == nullptr) return;
  logging::info("checked {} file(s) in {:.1f} ms on {} thread(s); summed over threads: read+normalize {:.1f} ms, "
                "audit+rules {:.1f} ms, render {:.1f} ms",
                files, check_time.elapsed_ms(), std::max(1u, worker_count_for(files)), times->ms(PhaseTimes::load),
                times->ms(PhaseTimes::check), times->ms(PhaseTimes::render));
}

// Phase times are kept only when the log will print them.
std::unique_ptr<PhaseTimes> phase_times_if_logging() {
  return logging::enabled(logging::Level::info) ? std::make_unique<PhaseTimes>() : nullptr;
}

template <class Item>
void check_in_order(const std::vector<std::string>& files, const std::function<Item(const std::string&)>& check_one,
                    const std::function<void(Item&&)>& emit) {
  if (unsigned workers = worker_count_for(files.size()); workers > 0) {
    OrderedChecker<Item>(files, check_one).run(workers, emit);
  } else {
    for (const auto& file : files) emit(check_one(file));
  }
}

}  // namespace

CheckCounts check_paths_streaming(const std::vector<std::string>& paths, const CheckOptions& options,
                                  const std::function<std::string(const FileResult&)>& render,
                                  const std::function<void(RenderedFile&&)>& on_file) {
  CheckCounts counts;
  std::function<void(RenderedFile&&)> emit = [&](RenderedFile&& rendered) {
    counts.add(rendered.counts);
    on_file(std::move(rendered));
  };
  std::vector<FileResult> unreadable_paths;
  const std::vector<std::string> files = files_under(paths, unreadable_paths);
  const auto times = phase_times_if_logging();
  const logging::Stopwatch check_time;
  for (const auto& failed : unreadable_paths) emit(render_result(failed, render, times.get()));
  check_in_order<RenderedFile>(
      files, [&](const std::string& file) { return render_result(check_file(file, options, times.get()), render, times.get()); },
      emit);
  log_phase_times(times.get(), files.size(), check_time);
  return counts;
}

CheckCounts check_paths_streaming(const std::vector<std::string>& paths, const CheckOptions& options,
                                  const std::function<void(FileResult&&)>& on_file) {
  CheckCounts counts;
  std::function<void(FileResult&&)> emit = [&](FileResult&& result) {
    counts.add(result);
    on_file(std::move(result));
  };
  std::vector<FileResult> unreadable_paths;
  const std::vector<std::string> files = files_under(paths, unreadable_paths);
  const auto times = phase_times_if_logging();
  const logging::Stopwatch check_time;
  for (auto& failed : unreadable_paths) emit(std::move(failed));
  check_in_order<FileResult>(files, [&](const std::string& file) { return check_file(file, options, times.get()); }, emit);
  log_phase_times(times.get(), files.size(), check_time);
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
