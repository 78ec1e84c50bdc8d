// Two checked sides of one model compared: fields, pairs, engine lengths, the audit and the findings.
#include "ropelens/diff/diff.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "diffing.hpp"
#include "ropelens/engines/engine_comparison.hpp"
#include "ropelens/engines/deployment.hpp"
#include "ropelens/normalize/normalize.hpp"

namespace ropelens {
namespace {

using diff_detail::NamedValue;

// A setup's copy of a model-wide value (its max_position_embeddings, read from the same key) is left out when
// the model-wide change already says the same.
std::vector<FieldChange> without_repeats(std::vector<FieldChange> changes) {
  auto repeats_model_wide = [&](const FieldChange& c) {
    return !c.setup.empty() && std::any_of(changes.begin(), changes.end(), [&](const FieldChange& wide) {
      return wide.setup.empty() && wide.field == c.field && wide.old_value == c.old_value &&
             wide.new_value == c.new_value;
    });
  };
  std::vector<FieldChange> kept;
  for (const auto& c : changes)
    if (!repeats_model_wide(c)) kept.push_back(c);
  return kept;
}

std::vector<FieldChange> changed_fields(const Model& old_model, const Model& new_model) {
  const auto old_fields = diff_detail::normalized_fields(old_model);
  const auto new_fields = diff_detail::normalized_fields(new_model);
  auto find = [](const std::vector<NamedValue>& fields, const NamedValue& like) -> const NamedValue* {
    for (const auto& f : fields)
      if (f.setup == like.setup && f.field == like.field) return &f;
    return nullptr;
  };
  std::vector<FieldChange> changes;
  for (const auto& now : new_fields) {
    const NamedValue* before = find(old_fields, now);
    if (before != nullptr && diff_detail::same_value(before->value, now.value)) continue;
    if (before == nullptr && now.from.origin == Origin::defaulted) continue;  // follows from a method change shown
    changes.push_back({now.setup, now.field, before ? before->value : nlohmann::json(), now.value,
                       before ? before->from.describe() : "", now.from.describe()});
  }
  for (const auto& before : old_fields)
    if (find(new_fields, before) == nullptr && before.from.origin != Origin::defaulted)
      changes.push_back({before.setup, before.field, before.value, nlohmann::json(), before.from.describe(), ""});
  return without_repeats(std::move(changes));
}

const RopeSetup* setup_named(const Model& model, const std::string& name) {
  for (const auto& setup : model.setups)
    if (setup.name == name) return &setup;
  return nullptr;
}

std::vector<int> out_of_range_of(const FileResult& side, const std::string& setup_name) {
  for (const auto& audit : side.audit.setups)
    if (side.model.setups[static_cast<std::size_t>(audit.setup)].name == setup_name) return audit.out_of_range_pairs;
  return {};
}

// Effective theta_i on both sides at their declared lengths, as `table` computes them.
void compare_pairs(const RopeSetup& old_setup, const RopeSetup& new_setup, SetupChange& change) {
  const RopeTable old_table = compute_rope_table(old_setup);
  const RopeTable new_table = compute_rope_table(new_setup);
  change.old_attention_factor = old_table.attention_factor;
  change.new_attention_factor = new_table.attention_factor;
  const std::size_t pairs = std::min(old_table.inv_freq.size(), new_table.inv_freq.size());
  change.pairs_compared = static_cast<int>(pairs);
  double largest_log_ratio = 0.0;
  for (std::size_t i = 0; i < pairs; ++i) {
    const double before = old_table.inv_freq[i], after = new_table.inv_freq[i];
    if (relative_difference(before, after) <= kEngineRelativeThreshold) continue;
    change.changed_pairs.push_back(static_cast<int>(i));
    if (before <= 0.0 || after <= 0.0) continue;  // a pair that stops (or starts) turning has no ratio
    const double log_ratio = std::abs(std::log(after / before));
    if (change.largest && log_ratio <= largest_log_ratio) continue;
    largest_log_ratio = log_ratio;
    change.largest = LargestPairChange{static_cast<int>(i), before, after, after / before};
  }
}

std::vector<SetupChange> changed_setups(const FileResult& old_side, const FileResult& new_side) {
  std::vector<std::string> names;
  for (const auto& setup : new_side.model.setups) names.push_back(setup.name);
  for (const auto& setup : old_side.model.setups)
    if (std::find(names.begin(), names.end(), setup.name) == names.end()) names.push_back(setup.name);
  std::vector<SetupChange> changes;
  for (const auto& name : names) {
    SetupChange change;
    change.setup = name;
    const RopeSetup* before = setup_named(old_side.model, name);
    const RopeSetup* after = setup_named(new_side.model, name);
    change.on_old = before != nullptr;
    change.on_new = after != nullptr;
    if (before && after) compare_pairs(*before, *after, change);
    else if (before) change.old_attention_factor = compute_rope_table(*before).attention_factor;
    else change.new_attention_factor = compute_rope_table(*after).attention_factor;
    change.old_out_of_range = out_of_range_of(old_side, name);
    change.new_out_of_range = out_of_range_of(new_side, name);
    changes.push_back(std::move(change));
  }
  return changes;
}

// Each engine's current version, or with a stack the first version of each engine it compares.
std::vector<EngineVersion> length_versions(const Deployment& deployment) {
  std::vector<EngineVersion> versions;
  for (EngineVersion version : deployment.compared_versions())
    if (std::none_of(versions.begin(), versions.end(),
                     [&](EngineVersion v) { return engine_of(v) == engine_of(version); }))
      versions.push_back(version);
  return versions;
}

std::vector<EngineLengthChange> engine_lengths(const DiffSide& old_side, const DiffSide& new_side,
                                               const Deployment& deployment) {
  std::vector<EngineLengthChange> lengths;
  for (EngineVersion version : length_versions(deployment)) {
    EngineLengthChange change;
    change.version = version;
    if (old_side) {
      const LengthLimit limit = engine_view(old_side->model, change.version, old_side->audit.target_tokens).length;
      change.old_limit_tokens = limit.limit_tokens;
      change.old_derivation = limit.derivation;
    }
    if (new_side) {
      const LengthLimit limit = engine_view(new_side->model, change.version, new_side->audit.target_tokens).length;
      change.new_limit_tokens = limit.limit_tokens;
      change.new_derivation = limit.derivation;
    }
    lengths.push_back(std::move(change));
  }
  return lengths;
}

// Marks the first old finding with this key that is not matched yet; false when there is none.
bool take_match(const std::vector<std::string>& old_keys, const std::string& wanted, std::vector<bool>& matched) {
  for (std::size_t i = 0; i < old_keys.size(); ++i) {
    if (matched[i] || old_keys[i] != wanted) continue;
    matched[i] = true;
    return true;
  }
  return false;
}

// A finding on one side matches one on the other with the same code, fingerprint and (when both sides are
// the same kind of file) JSON pointer.
FindingChanges compare_findings(const DiffSide& old_side, const DiffSide& new_side) {
  FindingChanges changes;
  const std::vector<Diagnostic> none;
  const auto& before = old_side ? old_side->diagnostics : none;
  const auto& after = new_side ? new_side->diagnostics : none;
  const bool same_kind = !old_side || !new_side || from_gguf_file(old_side->model) == from_gguf_file(new_side->model);
  auto key = [&](const Diagnostic& d) {
    return d.code + '\n' + finding_fingerprint(d) + '\n' + (same_kind ? d.where.pointer : std::string());
  };
  std::vector<std::string> old_keys;
  for (const auto& d : before) old_keys.push_back(key(d));
  std::vector<bool> matched(before.size(), false);
  for (const auto& d : after) {
    if (take_match(old_keys, key(d), matched)) changes.unchanged.push_back(d);
    else changes.introduced.push_back(d);
  }
  // A declared length raised with the RoPE unchanged trains nothing: what the old side had at the target and the
  // new side no longer reports (the declared-length finding) is kept, never shown as fixed.
  const bool raised_only = old_side && new_side && new_side->audit.trained.bound &&
                           old_side->model.max_position_embeddings.value < new_side->audit.trained.bound->declared;
  for (std::size_t i = 0; i < before.size(); ++i)
    if (!matched[i]) (raised_only ? changes.kept : changes.fixed).push_back(before[i]);
  return changes;
}

}  // namespace

std::string_view to_string(DiffStatus status) {
  switch (status) {
    case DiffStatus::modified: return "modified";
    case DiffStatus::added: return "added";
    case DiffStatus::deleted: return "deleted";
    case DiffStatus::renamed: return "renamed";
    case DiffStatus::config_changed: return "config_changed";
  }
  return "modified";
}

ModelDiff diff_checked(DiffStatus status, const DiffSide& old_side, const DiffSide& new_side,
                       const Deployment& deployment) {
  ModelDiff diff;
  diff.status = status;
  if (old_side) diff.old_path = old_side->path;
  if (new_side) diff.new_path = new_side->path;
  diff.path = new_side ? diff.new_path : diff.old_path;
  diff.resolved_file = new_side ? new_side->resolved_file : old_side->resolved_file;
  for (const DiffSide* side : {&old_side, &new_side})
    if (*side && (*side)->error) {
      diff.error = (*side)->error;
      return diff;
    }
  if (old_side) diff.old_target_tokens = old_side->audit.target_tokens;
  if (new_side) diff.new_target_tokens = new_side->audit.target_tokens;
  if (old_side && new_side) {
    diff.fields = changed_fields(old_side->model, new_side->model);
    diff.setups = changed_setups(*old_side, *new_side);
  }
  diff.engines = engine_lengths(old_side, new_side, deployment);
  diff.findings = compare_findings(old_side, new_side);
  return diff;
}

DiffCounts count_changes(const std::vector<ModelDiff>& models) {
  DiffCounts counts;
  for (const auto& model : models) {
    ++counts.models;
    if (model.error) ++counts.unreadable;
    for (const auto& d : model.findings.introduced) {
      if (d.severity == Severity::error) ++counts.introduced_errors;
      else if (d.severity == Severity::warning) ++counts.introduced_warnings;
      else ++counts.introduced_infos;
    }
    counts.fixed += static_cast<int>(model.findings.fixed.size());
    counts.unchanged += static_cast<int>(model.findings.unchanged.size());
    counts.kept += static_cast<int>(model.findings.kept.size());
  }
  return counts;
}

namespace {

FileResult unreadable_side(const InputError& e) {
  FileResult failed;
  failed.path = e.file();
  failed.error = e.what();
  return failed;
}

// One side of `diff OLD NEW`: loaded, or why it could not be read.
struct NamedSide {
  std::optional<LoadedModel> loaded;
  std::optional<InputError> error;
};

NamedSide load_named(const std::string& path, const CheckOptions& options) {
  try {
    return {load_model(path, options.edits), std::nullopt};
  } catch (const InputError& e) {
    return {std::nullopt, e};
  }
}

FileResult check_named(NamedSide side, const CheckOptions& options) {
  if (side.error) return unreadable_side(*side.error);
  return check_model(std::move(*side.loaded), options);
}

// A GGUF side is checked against the config on the other side (`diff config.json model.gguf`); without one, against
// --source or the config.json beside it, as check does.
void pair_with_configs(NamedSide& old_side, NamedSide& new_side, const CheckOptions& options) {
  for (auto [gguf, other] : {std::pair{&old_side, &new_side}, std::pair{&new_side, &old_side}}) {
    if (!gguf->loaded || !gguf->loaded->gguf) continue;
    try {
      if (other->loaded && !other->loaded->gguf && !options.source)
        diff_detail::pair_with(*gguf->loaded, other->loaded->model, "the other side of the diff");
      else attach_conversion_source(*gguf->loaded, options.source);
    } catch (const InputError& e) {
      *gguf = {std::nullopt, e};
    }
  }
}

}  // namespace

void diff_detail::pair_with(LoadedModel& gguf, const Model& config, std::string_view where) {
  gguf.source = config;
  gguf.model.notes.push_back(fmt::format("converted from {} ({}): its conversion is checked", config.source, where));
}

CheckOptions diff_detail::with_history(const CheckOptions& options, const DiffSide& old_side) {
  CheckOptions out = options;
  if (old_side && !old_side->error && !options.training.trained_length)
    out.training.earlier = earlier_version(old_side->model, old_side->model.source);
  return out;
}

DiffReport diff_files(const std::string& old_path, const std::string& new_path, const CheckOptions& options) {
  DiffReport report;
  report.old_label = shown_path(old_path);
  report.new_label = shown_path(new_path);
  NamedSide old_loaded = load_named(old_path, options);
  NamedSide new_loaded = load_named(new_path, options);
  pair_with_configs(old_loaded, new_loaded, options);
  FileResult old_side = check_named(std::move(old_loaded), options);
  FileResult new_side = check_named(std::move(new_loaded), diff_detail::with_history(options, old_side));
  report.models.push_back(
      diff_checked(DiffStatus::modified, std::move(old_side), std::move(new_side), options.deployment));
  report.counts = count_changes(report.models);
  return report;
}

}  // namespace ropelens
