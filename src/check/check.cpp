// The check pipeline: each path read, normalized, audited at its target, and run through the catalog.
#include <algorithm>
#include <array>
#include <atomic>
#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <thread>

#include <fmt/format.h>

#include "ropelens/check/check.hpp"
#include "ropelens/engines/engine_comparison.hpp"
#include "ropelens/engines/engine_report.hpp"
#include "ropelens/engines/engine_views.hpp"
#include "ropelens/engines/gguf_conversion_audit.hpp"
#include "ropelens/log/log.hpp"
#include "ropelens/engines/method_override.hpp"
#include "ropelens/check/model_log.hpp"
#include "ropelens/input/cores.hpp"
#include "ropelens/normalize/normalize.hpp"
#include "ropelens/engines/registry.hpp"
#include "ropelens/engines/versions.hpp"
#include "ropelens/model/text.hpp"

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
  bool weights_index_listed_absent = false;
  bool operator<(const ScannedFile& other) const { return path < other.path; }
  bool operator==(const ScannedFile& other) const { return path == other.path; }
};

// Time spent per phase, summed over the worker threads; kept only when the -v log is on.
class PhaseTimes {
 public:
  enum Phase { load, check, render, kPhases };

  void add(Phase phase, double ms) {
    ns_[phase].fetch_add(static_cast<std::int64_t>(ms * 1e6), std::memory_order_relaxed);
  }
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

LoadedModel load_scanned(const ScannedFile& file, const CheckOptions& options) {
  LoadedModel loaded = file.named || options.revision
                           ? load_model(file.path, options.edits, options.revision)
                           : load_found_model(file.path, options.edits, file.weights_index_listed_absent);
  attach_conversion_source(loaded, options.source);
  return loaded;
}

// An InputError's message without the file it starts with, for a line that names the file itself.
std::string message_without_file(const InputError& error) {
  const std::string_view what = error.what();
  const std::string prefix = error.file() + ": ";
  return std::string(what.substr(what.rfind(prefix, 0) == 0 ? prefix.size() : 0));
}

FileResult check_launch_file(const ScannedFile& file, const CheckOptions& options) {
  const InputFile input = read_input_file(file.path);
  return ropelens::check_launch_file(file.path, input.text, options);
}

// A named file whose name says nothing of what it is (`start`, `override.conf`, `run.zsh`) and whose first line
// says it is a script, a systemd unit or a Modelfile.
bool launch_by_text(const std::string& path) {
  const std::string name = std::filesystem::path(path).filename().string();
  if (name.ends_with(".json") || name.ends_with(".gguf") || name.ends_with(".safetensors")) return false;
  std::ifstream in(path, std::ios::binary);
  std::string head(4096, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(std::max<std::streamsize>(0, in.gcount())));
  return launch_text_kind(head) != LaunchText::none;
}

FileResult check_file(const ScannedFile& file, const CheckOptions& options, PhaseTimes* times) {
  try {
    if (file.named && (is_launch_file(file.path) || launch_by_text(file.path)))
      return timed(times, PhaseTimes::check, [&] { return check_launch_file(file, options); });
    LoadedModel loaded = timed(times, PhaseTimes::load, [&] { return load_scanned(file, options); });
    log_loaded_model(loaded);
    FileResult result = timed(times, PhaseTimes::check, [&] { return check_model(std::move(loaded), options); });
    log_audit_target(result, options.target_tokens.has_value());
    return result;
  } catch (const NotAModelConfig& e) {
    if (file.named && !options.force_exclude) return unreadable(e);
    logging::info("skipped {}: {}", e.file(), message_without_file(e));
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
                           bool keep_findings, PhaseTimes* times) {
  RenderedFile rendered{result.path, result.error, result.skipped, {}, {}, {}, {}};
  rendered.counts.add(result);
  if (result.skipped) return rendered;
  try {
    rendered.part = timed(times, PhaseTimes::render, [&] { return render(result); });
  } catch (const std::exception& e) {  // a defect; on a worker thread it would otherwise end the process
    rendered.error = InputError(result.path, std::string("internal error while rendering: ") + e.what()).what();
    rendered.counts.unreadable_files += result.error ? 0 : 1;
  }
  if (keep_findings) {
    rendered.findings = std::move(result.diagnostics);
    if (!result.error && !result.model.setups.empty() && result.audit.longest_trained() > 0)
      rendered.trained = EarlierVersion{result.path, result.model.max_position_embeddings.value,
                                        result.audit.longest_trained(), rope_signature(result.model)};
  }
  return rendered;
}

// Checks files on worker threads and hands what `check_one` makes of each back in order. Workers claim
// batches of files, so the threads meet once per batch rather than once per file; at most kBatchesAhead
// batches wait to be emitted, so memory does not grow with the number of files.
template <class Item> class OrderedChecker {
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

// Worker threads for a scan: one per job, no more than there are batches; none (the files are checked on the calling
// thread) when one would do.
unsigned worker_count_for(std::size_t files, unsigned jobs) {
  const std::size_t batches = (files + OrderedChecker<int>::kBatchSize - 1) / OrderedChecker<int>::kBatchSize;
  if (batches <= 1) return 0;  // before asking the cgroup for the cores: a single check should not pay for it
  const auto workers = static_cast<unsigned>(std::min<std::size_t>(jobs > 0 ? jobs : available_cores(), batches));
  return workers > 1 ? workers : 0;
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

std::optional<EarlierVersion> conversion_source_evidence(const LoadedModel& loaded,
                                                         const std::vector<TrainedLengthRule>& rules) {
  if (!loaded.gguf || !loaded.source) return std::nullopt;
  const ConversionAudit conversion = audit_conversion(*loaded.source, loaded.model);
  const bool same_rope =
      std::all_of(conversion.differences.begin(), conversion.differences.end(),
                  [](const ConversionDifference& d) { return d.aspect == ConversionAspect::context_length; });
  if (!same_rope) return std::nullopt;
  const Model& source = *loaded.source;
  return EarlierVersion{source.source, source.max_position_embeddings.value,
                        longest_trained_length(source, training_for({}, rules, source.source)),
                        rope_signature(loaded.model), true};
}

TrainingOverrides training_evidence(const LoadedModel& loaded, const TrainingOverrides& stated,
                                    const std::vector<TrainedLengthRule>& rules, const Baseline* baseline) {
  TrainingOverrides overrides = training_for(stated, rules, loaded.model.source);
  if (overrides.trained_length) return overrides;
  if (loaded.gguf && loaded.source) {
    auto from_source = conversion_source_evidence(loaded, rules);
    // The file runs another RoPE than its config: the conversion findings say so, and no known base its own RoPE
    // resembles (a Llama 3.1 file without rope_freqs looks like Llama 3) adds a second finding for the same cause.
    // This holds for `diff CONFIG GGUF` too, where the earlier version is that config.
    overrides.known_bases = from_source.has_value();
    if (!overrides.earlier) overrides.earlier = std::move(from_source);
  }
  if (!overrides.earlier && baseline) overrides.earlier = baseline->earlier_version_of(loaded.model.source);
  return overrides;
}

namespace {

// Beyond rounding: the two computations of one formula agree to about 1e-15.
bool differ(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) return true;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (relative_difference(a[i], b[i]) > 1e-9) return true;
  return false;
}

// A launch line runs its engine's frequencies, not transformers': the angles each pair needs at the served length
// are the ones that engine release computes (vLLM's dynamic NTK is static at max_position_embeddings × factor,
// transformers' grows with the sequence). A view that cannot load the config keeps the reference's figures.
void audit_as_launched(Audit& audit, const Model& model, const Launch& launch) {
  // A GGUF file is already read as llama.cpp reads it (its keys and rope_freqs tensor): nothing to re-read.
  if (audit.pair_figures_missing() || from_gguf_file(model)) return;
  const EngineView view = engine_view(model, launch.version, audit.target_tokens);
  if (view.refusal || view.no_class || view.setups.size() != audit.setups.size()) return;
  for (std::size_t i = 0; i < audit.setups.size(); ++i) {
    SetupAudit& setup = audit.setups[i];
    const std::vector<double>& launched = view.setups[i].inv_freq;
    if (launched.size() != setup.pairs.size()) continue;
    if (differ(launched, setup.at_target.inv_freq)) setup.needed_angles_from = label_of(launch.version);
    audit_needed_angles(setup, launched);
  }
}

}  // namespace

FileResult check_model(LoadedModel loaded, const CheckOptions& options) {
  Model& model = loaded.model;
  FileResult result;
  result.path = model.source;
  if (model.reference) result.resolved_file = shown_path(model.reference->path);
  TrainingHistory history{loaded.as_trained ? &*loaded.as_trained : nullptr,
                          training_evidence(loaded, options.training, options.trained_lengths, options.baseline.get())};
  result.audit = audit_model(model, resolve_target(options.target_tokens, model), history);
  if (options.launch) audit_as_launched(result.audit, model, *options.launch);
  std::vector<RopeTable> tables;
  for (const auto& setup : model.setups) tables.push_back(compute_rope_table(setup));
  Context context{model, tables, result.audit};
  context.unedited = loaded.as_trained ? &*loaded.as_trained : nullptr;
  context.source = loaded.source ? &*loaded.source : nullptr;
  context.memory_budget = options.memory_budget;
  context.tensor_parallel = options.tensor_parallel;
  context.kv_dtype = options.kv_dtype;
  context.deployment = options.deployment;
  context.launch = options.launch.get();
  result.diagnostics = run_rules(context, options.selection);
  PointerLocations locations(loaded);
  for (auto& d : result.diagnostics) {
    locations.locate(d.where);
    for (auto& r : d.related) locations.locate(r);
  }
  if (options.baseline) result.baseline = options.baseline->apply(result.path, result.diagnostics);
  // The views the rules built, when they built them; none from a made-up head_dim or undefined frequencies.
  if (!options.engines.empty() && !result.audit.pair_figures_missing())
    result.engines = std::make_shared<const EngineReport>(
        select_engine_report(context.engine_views(), options.engines, result.audit.target_tokens));
  result.model = std::move(model);
  return result;
}

FileResult check_file_bytes(const FileBytes& file, const CheckOptions& options) {
  try {
    return check_model(load_file_bytes(file, options.edits), options);
  } catch (const InputError& e) {
    return unreadable(e);
  }
}

LaunchRelease launch_release(const Deployment& deployment, Engine engine) {
  for (const DeployedEngine& deployed : deployment.engines)
    if (deployed.engine == engine && deployed.version) return {*deployed.version, deployed.pinned};
  return {default_version(engine), ""};
}

std::optional<Engine> fragment_engine(const Deployment& deployment) {
  const std::vector<Engine> engines = deployment.served();
  if (!deployment.stated() || engines.size() != 1) return std::nullopt;
  return engines.front();
}

namespace {

// Why a launch's model cannot be read from the command, when --model does not give it.
std::string missing_model(const Launch& launch) {
  if (launch.placeholder_model)
    return fmt::format(
        "line {}: the command's model, '{}', is a recipe's placeholder: give check --model PATH|ID "
        "(a config.json, a model folder, a GGUF file, a Hugging Face id or ollama:NAME)",
        launch.line, terminal_safe(launch.model));
  if (!launch.runner.empty())
    return fmt::format(
        "line {}: {} loads the model each request names: give check --model ollama:NAME (or a GGUF "
        "file) for the model it serves",
        launch.line, launch.runner);
  return fmt::format("line {}: the command names no model (give check --model PATH|ID)", launch.line);
}

}  // namespace

FileResult check_launch(Launch launch, const CheckOptions& options) {
  const std::string spec = options.launch_model.value_or(launch.placeholder_model ? "" : launch.model);
  if (spec.empty() && !options.launch_input) throw InputError(launch.file, missing_model(launch));
  std::vector<Edit> edits = launch.config_edits;
  edits.insert(edits.end(), options.edits.begin(), options.edits.end());
  const auto load = [&] {
    return options.launch_input ? load_launched_model(*options.launch_input, edits, launch.gguf_keys)
                                : load_launched_model(spec, edits, launch.gguf_keys);
  };
  LoadedModel loaded = load();
  if (add_load_time_keys(launch, loaded.model, loaded.trained())) loaded = load();
  CheckOptions for_launch = options;
  // The line's own parallelism is the deployment's (fit's printed line carries --tensor-parallel-size).
  if (!launch.tensor_parallel_flag.empty())
    for_launch.tensor_parallel = static_cast<int>(std::clamp<std::int64_t>(launch.tensor_parallel, 1, 1 << 16));
  const auto gpu_memory = options.memory_budget
                              ? std::optional<std::int64_t>(*options.memory_budget * for_launch.tensor_parallel)
                              : std::nullopt;
  resolve_launch(launch, loaded.model, loaded.trained(), gpu_memory);
  for (const std::string& note : launch.notes) logging::info("{}:{}: note: {}", launch.file, launch.line, note);
  loaded.model.notes.insert(loaded.model.notes.end(), launch.notes.begin(), launch.notes.end());
  for_launch.target_tokens = launch.served_tokens;
  if (launch.kv_dtype) for_launch.kv_dtype = launch.kv_dtype;
  const VersionRow* row = nullptr;
  for (const VersionRow& candidate : engine_row(launch.engine).versions.rows)
    if (candidate.version == launch.version) row = &candidate;
  Deployment deployment;
  deployment.engines.push_back(
      {launch.engine, launch.release.empty() && row ? std::string(row->key) : launch.release, launch.version});
  deployment.notes = options.deployment.notes;
  for_launch.deployment = std::move(deployment);
  if (!for_launch.engines.empty()) for_launch.engines = {launch.engine};
  const int line = launch.line;
  std::string file = launch.file;
  for_launch.launch = std::make_shared<const Launch>(std::move(launch));
  for_launch.baseline = nullptr;
  FileResult result = check_model(std::move(loaded), for_launch);
  result.path = file;
  result.resolved_file.reset();
  for (auto& d : result.diagnostics) {
    d.where.line = line;
    d.where.column = 1;
    d.where.byte_offset.reset();
    for (auto& r : d.related) {
      r.line = line;
      r.column = 1;
      r.byte_offset.reset();
    }
  }
  if (options.baseline) result.baseline = options.baseline->apply(result.path, result.diagnostics);
  return result;
}

FileResult check_launch_file(const std::string& file, std::string_view text, const CheckOptions& options) {
  std::vector<Launch> launches = read_launches(
      file, text, [&](Engine engine) { return launch_release(options.deployment, engine); },
      fragment_engine(options.deployment));
  FileResult merged;
  for (Launch& launch : launches) {
    FileResult one = check_launch(std::move(launch), options);
    if (merged.path.empty()) {
      merged = std::move(one);
      continue;
    }
    merged.diagnostics.insert(merged.diagnostics.end(), std::make_move_iterator(one.diagnostics.begin()),
                              std::make_move_iterator(one.diagnostics.end()));
  }
  return merged;
}

std::vector<FileResult> check_serve_command(std::string_view command, const CheckOptions& options) {
  std::vector<Launch> launches;
  try {
    launches = read_serve_commands(
        command, [&](Engine engine) { return launch_release(options.deployment, engine); },
        fragment_engine(options.deployment));
  } catch (const std::invalid_argument& e) {  // an entry of the document, as an unreadable file is
    return {unreadable(InputError("--serve", e.what()))};
  }
  std::vector<FileResult> results;
  for (Launch& launch : launches) {
    try {
      results.push_back(check_launch(std::move(launch), options));
    } catch (const InputError& e) {
      results.push_back(unreadable(e));
    }
  }
  return results;
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

// Every file under the paths, sorted and without duplicates; paths that cannot be expanded become unreadable
// results, and what the scans could not honour becomes a note. With the -v log on, what a walk passed over is logged.
std::vector<ScannedFile> files_under(const std::vector<std::string>& paths, const CheckOptions& options,
                                     std::vector<FileResult>& unreadable_paths, std::vector<std::string>& notes) {
  const logging::Stopwatch walk_time;
  ScanFilter filter = options.scan;
  filter.record_skipped = logging::enabled(logging::Level::info);
  filter.threads = options.jobs;
  std::vector<ScannedFile> files;
  for (const auto& path : paths) {
    try {
      FoundFiles found = find_model_files(path, filter);
      log_skipped(found.skipped);
      logging::debug("{}: {} file(s) to check", path, found.files.size());
      notes.insert(notes.end(), found.notes.begin(), found.notes.end());
      for (auto& file : found.files) {
        const bool no_index = listed_without_weights_index(found, file);
        files.push_back({std::move(file), found.named, no_index});
      }
    } catch (const InputError& e) {
      unreadable_paths.push_back(unreadable(e));
    }
  }
  std::stable_sort(files.begin(), files.end());
  files.erase(std::unique(files.begin(), files.end()), files.end());
  if (options.force_exclude) {
    files.erase(std::remove_if(files.begin(), files.end(),
                               [&](const ScannedFile& file) { return file.named && excluded_path(file.path, filter); }),
                files.end());
  }
  logging::info("found {} file(s) under {} path(s) in {:.1f} ms", files.size(), paths.size(), walk_time.elapsed_ms());
  return files;
}

// `files` were read, `skipped` of them were not model configs and were not checked.
void log_phase_times(const PhaseTimes* times, std::size_t files, std::size_t skipped, unsigned workers,
                     const logging::Stopwatch& check_time) {
  if (times == nullptr) return;
  logging::info(
      "checked {} file(s){} in {:.1f} ms on {} thread(s); summed over threads: read+normalize {:.1f} ms, "
      "audit+rules {:.1f} ms, render {:.1f} ms",
      files - skipped, skipped > 0 ? fmt::format(" ({} skipped: not model configs)", skipped) : "",
      check_time.elapsed_ms(), std::max(1u, workers), times->ms(PhaseTimes::load), times->ms(PhaseTimes::check),
      times->ms(PhaseTimes::render));
}

// Phase times are kept only when the log will print them.
std::unique_ptr<PhaseTimes> phase_times_if_logging() {
  return logging::enabled(logging::Level::info) ? std::make_unique<PhaseTimes>() : nullptr;
}

template <class Item> void check_in_order(const std::vector<ScannedFile>& files, unsigned workers,
                                          const std::function<Item(const ScannedFile&)>& check_one,
                                          const std::function<void(Item&&)>& emit) {
  if (workers > 0) {
    OrderedChecker<Item>(files, check_one).run(workers, emit);
  } else {
    for (const auto& file : files) emit(check_one(file));
  }
}

// Runs the pipeline, handing each file to `on_item` in order; `make_item` turns a result into what is handed
// over, `count` adds an item to the totals.
template <class Item> CheckCounts check_all(const std::vector<std::string>& paths, const CheckOptions& options,
                                            const std::function<Item(FileResult&&, PhaseTimes*)>& make_item,
                                            const std::function<void(CheckCounts&, const Item&)>& count,
                                            const std::function<void(Item&&)>& on_item) {
  CheckCounts counts;
  std::function<void(Item &&)> emit = [&](Item&& item) {
    count(counts, item);
    on_item(std::move(item));
  };
  std::vector<FileResult> unreadable_paths;
  const std::vector<ScannedFile> files = files_under(paths, options, unreadable_paths, counts.scan_notes);
  const auto times = phase_times_if_logging();
  const logging::Stopwatch check_time;
  for (const std::string& command : options.serve_commands)
    for (FileResult& result : check_serve_command(command, options)) emit(make_item(std::move(result), times.get()));
  for (auto& failed : unreadable_paths) emit(make_item(std::move(failed), times.get()));
  const unsigned workers = worker_count_for(files.size(), options.jobs);
  check_in_order<Item>(
      files, workers,
      [&](const ScannedFile& file) { return make_item(check_file(file, options, times.get()), times.get()); }, emit);
  log_phase_times(times.get(), files.size(), static_cast<std::size_t>(counts.skipped_files), workers, check_time);
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
      [&](FileResult&& result, PhaseTimes* times) {
        return render_result(std::move(result), render, options.keep_findings, times);
      },
      [](CheckCounts& counts, const RenderedFile& file) { counts.add(file.counts); }, on_file);
}

CheckCounts check_paths_streaming(const std::vector<std::string>& paths, const CheckOptions& options,
                                  const std::function<void(FileResult&&)>& on_file) {
  return check_all<FileResult>(
      paths, options, [](FileResult&& result, PhaseTimes*) { return std::move(result); },
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
