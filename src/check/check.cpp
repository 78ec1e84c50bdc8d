// The check pipeline: each path read, normalized, audited at its target, and run through the catalog.
#include <algorithm>
#include <condition_variable>
#include <map>
#include <mutex>
#include <thread>

#include <fmt/format.h>

#include "ropelens/check.hpp"
#include "ropelens/engine_report.hpp"
#include "ropelens/method_override.hpp"
#include "ropelens/normalize.hpp"

namespace ropelens {
namespace {

// Where each pointer of a file's findings is: line and column in a JSON file (the nearest enclosing value for
// a key the file lacks), the byte offset of the key in a GGUF file. Findings often share a pointer, so each
// is found once.
class PointerLocations {
 public:
  explicit PointerLocations(const LoadedModel& loaded) : text_(loaded.text), byte_offsets_(loaded.byte_offsets) {}

  void locate(Location& where) {
    if (auto it = byte_offsets_.find(where.pointer); it != byte_offsets_.end()) where.byte_offset = it->second;
    if (text_.empty()) return;
    auto [entry, added] = found_.try_emplace(where.pointer);
    if (added) entry->second = find_nearest(where.pointer);
    if (!entry->second) return;
    where.line = entry->second->line;
    where.column = entry->second->column;
  }

 private:
  std::optional<TextPosition> find_nearest(std::string pointer) const {
    for (;;) {
      TextPosition position;
      if (locate_pointer(text_, pointer, position)) return position;
      if (pointer.empty() || pointer[0] != '/') return std::nullopt;
      pointer.erase(pointer.rfind('/'));
    }
  }

  const std::string& text_;
  const std::map<std::string, std::uint64_t, std::less<>>& byte_offsets_;
  std::map<std::string, std::optional<TextPosition>, std::less<>> found_;
};

FileResult unreadable(const InputError& e) {
  FileResult failed;
  failed.path = e.file();
  failed.error = e.what();
  return failed;
}

// A file the pipeline reads: named on the command line, or found by a directory scan.
struct ScannedFile {
  std::string path;
  bool named = false;
  bool operator<(const ScannedFile& other) const { return path < other.path; }
  bool operator==(const ScannedFile& other) const { return path == other.path; }
};

FileResult check_file(const ScannedFile& file, const CheckOptions& options) {
  try {
    LoadedModel loaded = load_model(file.path, options.edits);
    if (loaded.as_trained) record_method_overrides(loaded.model, *loaded.as_trained);
    return check_model(std::move(loaded), options);
  } catch (const NotAModelConfig& e) {
    if (file.named && !options.force_exclude) return unreadable(e);
    FileResult skipped;
    skipped.path = e.file();
    skipped.skipped = e.what();
    return skipped;
  } catch (const InputError& e) {
    return unreadable(e);
  } catch (const std::exception& e) {  // a defect, reported per file rather than ending the scan
    return unreadable(InputError(file.path, std::string("internal error: ") + e.what()));
  }
}

RenderedFile render_result(FileResult result, const std::function<std::string(const FileResult&)>& render,
                           bool keep_findings) {
  RenderedFile rendered{result.path, result.error, result.skipped, {}, {}, {}};
  rendered.counts.add(result);
  if (result.skipped) return rendered;
  try {
    rendered.part = render(result);
  } catch (const std::exception& e) {  // a defect; on a worker thread it would otherwise end the process
    rendered.error = InputError(result.path, std::string("internal error while rendering: ") + e.what()).what();
    rendered.counts.unreadable_files += result.error ? 0 : 1;
  }
  if (keep_findings) rendered.findings = std::move(result.diagnostics);
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

  using CheckOne = std::function<Item(const ScannedFile&)>;

  OrderedChecker(const std::vector<ScannedFile>& files, const CheckOne& check_one)
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

  const std::vector<ScannedFile>& files_;
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
  skipped_files += other.skipped_files;
  baseline_used = baseline_used || other.baseline_used;
  baseline_suppressed += other.baseline_suppressed;
  baseline_fixed.insert(baseline_fixed.end(), other.baseline_fixed.begin(), other.baseline_fixed.end());
  scan_notes.insert(scan_notes.end(), other.scan_notes.begin(), other.scan_notes.end());
}

void CheckCounts::add(const FileResult& file) {
  if (file.skipped) {
    ++skipped_files;
    return;
  }
  ++files;
  if (file.error) ++unreadable_files;
  if (file.baseline) {
    baseline_used = true;
    baseline_suppressed += file.baseline->suppressed;
    baseline_fixed.insert(baseline_fixed.end(), file.baseline->fixed.begin(), file.baseline->fixed.end());
  }
  for (const auto& d : file.diagnostics) {
    if (d.severity == Severity::error) ++errors;
    else if (d.severity == Severity::warning) ++warnings;
    else ++infos;
  }
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
  result.diagnostics = run_rules(context, options.selection);
  PointerLocations locations(loaded);
  for (auto& d : result.diagnostics) {
    locations.locate(d.where);
    for (auto& r : d.related) locations.locate(r);
  }
  if (options.baseline) result.baseline = options.baseline->apply(result.path, result.diagnostics);
  if (!options.engines.empty())
    result.engines = std::make_shared<const EngineReport>(build_engine_report(model, options.engines, result.audit.target_tokens));
  result.model = std::move(model);
  return result;
}

namespace {

// Every file under the paths, sorted and without duplicates; paths that cannot be expanded become unreadable
// results, and what the scans could not honour becomes a note.
std::vector<ScannedFile> files_under(const std::vector<std::string>& paths, const CheckOptions& options,
                                     std::vector<FileResult>& unreadable_paths, std::vector<std::string>& notes) {
  std::vector<ScannedFile> files;
  for (const auto& path : paths) {
    try {
      FoundFiles found = find_model_files(path, options.scan);
      notes.insert(notes.end(), found.notes.begin(), found.notes.end());
      for (auto& file : found.files) files.push_back({std::move(file), found.named});
    } catch (const InputError& e) {
      unreadable_paths.push_back(unreadable(e));
    }
  }
  std::stable_sort(files.begin(), files.end());
  files.erase(std::unique(files.begin(), files.end()), files.end());
  if (options.force_exclude) {
    const ScanFilter& filter = options.scan;
    files.erase(std::remove_if(files.begin(), files.end(),
                               [&](const ScannedFile& file) { return file.named && excluded_path(file.path, filter); }),
                files.end());
  }
  return files;
}

template <class Item>
void check_in_order(const std::vector<ScannedFile>& files, const std::function<Item(const ScannedFile&)>& check_one,
                    const std::function<void(Item&&)>& emit) {
  if (unsigned workers = worker_count_for(files.size()); workers > 0) {
    OrderedChecker<Item>(files, check_one).run(workers, emit);
  } else {
    for (const auto& file : files) emit(check_one(file));
  }
}

// Runs the pipeline, handing each file to `on_item` in order; `make_item` turns a result into what is handed
// over, `count` adds an item to the totals.
template <class Item>
CheckCounts check_all(const std::vector<std::string>& paths, const CheckOptions& options,
                      const std::function<Item(FileResult&&)>& make_item,
                      const std::function<void(CheckCounts&, const Item&)>& count,
                      const std::function<void(Item&&)>& on_item) {
  CheckCounts counts;
  std::function<void(Item&&)> emit = [&](Item&& item) {
    count(counts, item);
    on_item(std::move(item));
  };
  std::vector<FileResult> unreadable_paths;
  const std::vector<ScannedFile> files = files_under(paths, options, unreadable_paths, counts.scan_notes);
  for (auto& failed : unreadable_paths) emit(make_item(std::move(failed)));
  check_in_order<Item>(
      files, [&](const ScannedFile& file) { return make_item(check_file(file, options)); }, emit);
  if (options.baseline) {
    counts.baseline_used = true;
    auto gone = options.baseline->entries_of_missing_files();
    counts.baseline_fixed.insert(counts.baseline_fixed.end(), gone.begin(), gone.end());
  }
  return counts;
}

}  // namespace

CheckCounts check_paths_streaming(const std::vector<std::string>& paths, const CheckOptions& options,
                                  const std::function<std::string(const FileResult&)>& render,
                                  const std::function<void(RenderedFile&&)>& on_file) {
  return check_all<RenderedFile>(
      paths, options,
      [&](FileResult&& result) { return render_result(std::move(result), render, options.keep_findings); },
      [](CheckCounts& counts, const RenderedFile& file) { counts.add(file.counts); }, on_file);
}

CheckCounts check_paths_streaming(const std::vector<std::string>& paths, const CheckOptions& options,
                                  const std::function<void(FileResult&&)>& on_file) {
  return check_all<FileResult>(
      paths, options, [](FileResult&& result) { return std::move(result); },
      [](CheckCounts& counts, const FileResult& result) { counts.add(result); }, on_file);
}

CheckReport check_paths(const std::vector<std::string>& paths, const CheckOptions& options) {
  CheckReport report;
  report.target_tokens = options.target_tokens.value_or(0);
  report.totals = check_paths_streaming(paths, options, [&](FileResult&& f) {
    if (f.skipped) report.skipped.push_back(f.path);
    else report.files.push_back(std::move(f));
  });
  return report;
}

}  // namespace ropelens
