// Seen versus needed angles per pair: the long-context audit of issue-defined phases P and E.
#include "ropelens/audit/audit.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <variant>

#include <fmt/format.h>

#include "ropelens/audit/known_bases.hpp"

namespace ropelens {
namespace {

constexpr double kDegreesPerRadian = 180.0 / 3.14159265358979323846;

bool original_length_given(const RopeSetup& setup) {
  return setup.original_max_position_embeddings &&
         setup.original_max_position_embeddings->from.origin != Origin::derived;
}

// L_P: original_max_position_embeddings when given; for linear scaling the declared length over the factor
// (the declared length of a PI model is the extended one); otherwise the declared length, or a length key of the
// config as trained that states less (Qwen-1's seq_length). A linear length is derived from the declared length as
// `bound` caps it: Gemma 3's max_position_embeddings raised from 131072 to 524288 with linear ×8 unchanged trained
// 131072 / 8 tokens before scaling, not 524288 / 8.
std::pair<std::int64_t, Provenance> pretrain_length(const Model& as_trained, const RopeSetup& setup,
                                                    const TrainingOverrides& options, const TrainedLengthBound& bound) {
  if (options.trained_length) return {*options.trained_length, Provenance::derived(options.trained_length_from)};
  if (original_length_given(setup) && setup.type != RopeType::dynamic)
    return {setup.original_max_position_embeddings->value, setup.original_max_position_embeddings->from};
  const auto declared = setup.max_position_embeddings.value;
  // A top-level original_max_position_embeddings without scaling documents the length trained.
  if (setup.type == RopeType::default_rope && as_trained.original_max_position_embeddings &&
      as_trained.original_max_position_embeddings->from.origin == Origin::config &&
      as_trained.original_max_position_embeddings->value < declared)
    return {as_trained.original_max_position_embeddings->value, as_trained.original_max_position_embeddings->from};
  if (setup.type == RopeType::linear && setup.factor && setup.factor->value > 1.0) {
    const bool capped = bound.bound && bound.bound->tokens < declared;
    const std::int64_t extended = capped ? bound.bound->tokens : declared;
    auto length = static_cast<std::int64_t>(std::llround(static_cast<double>(extended) / setup.factor->value));
    const std::string extended_from = capped ? fmt::format("{} from {}", extended, bound.bound->from.note)
                                             : fmt::format("max_position_embeddings {}", declared);
    return {length, Provenance::derived(fmt::format("{} / linear factor {}", extended_from, setup.factor->value),
                                        setup.max_position_embeddings.from.pointer)};
  }
  const Field<std::int64_t> shortest = as_trained.declared_length();
  if (shortest.value < declared) return {shortest.value, shortest.from};
  return {declared, setup.max_position_embeddings.from};
}

// The length the RoPE was built for, when the config states it (a filled-in value follows the declared length).
std::int64_t stated_original(const RopeSetup& setup) {
  return original_length_given(setup) ? setup.original_max_position_embeddings->value : 0;
}

double factor_of(const RopeSetup& setup) { return setup.factor ? setup.factor->value : 1.0; }

// The same rotary layout and frequencies: what an edit of max_position_embeddings alone leaves.
bool rope_unchanged(const EarlierVersion& earlier, const Model& model) {
  return !model.setups.empty() && !earlier.rope.empty() && earlier.rope == rope_signature(model);
}

TrainedLengthBound bound_trained_length(const Model& model, const TrainingOverrides& overrides) {
  TrainedLengthBound out;
  if (overrides.trained_length || model.setups.empty()) return out;
  const std::int64_t declared = model.max_position_embeddings.value;
  const BaseMatch match = overrides.known_bases ? match_known_base(model) : BaseMatch{};
  const bool above_a_candidate = std::any_of(match.candidates.begin(), match.candidates.end(),
                                             [&](const KnownBase* b) { return declared > b->declared; });
  if (match.ambiguous()) {
    if (above_a_candidate) out.ambiguous = match.names();  // at or below every candidate's length: nothing to say
  } else if (!match.candidates.empty() && declared > match.candidates.front()->declared) {
    const KnownBase& base = *match.candidates.front();
    TrainedLength bound;
    bound.tokens = base.declared;
    bound.declared = declared;
    bound.source = TrainedFrom::known_base;
    bound.base = match.names();
    bound.card = base.card;
    bound.evidence = base.native < base.declared ? fmt::format("{} ({} declared, {} native; {})", bound.base,
                                                               base.declared, base.native, base.card)
                                                 : fmt::format("{} ({}; {})", bound.base, base.declared, base.card);
    bound.from = Provenance::derived(fmt::format("the known base {}", bound.evidence),
                                     model.max_position_embeddings.from.pointer);
    out.bound = std::move(bound);
  }
  // An earlier version bounds a raise; the config a GGUF file was converted from bounds whatever the file declares.
  if (overrides.earlier && rope_unchanged(*overrides.earlier, model) &&
      (overrides.earlier->source_config || overrides.earlier->declared < declared)) {
    const std::int64_t earlier = overrides.earlier->trained;
    if (earlier < declared && (!out.bound || earlier < out.bound->tokens)) {  // the base names its card
      TrainedLength bound;
      bound.tokens = earlier;
      bound.declared = declared;
      bound.source = overrides.earlier->source_config ? TrainedFrom::source_config : TrainedFrom::earlier_version;
      bound.evidence =
          fmt::format("{} {} (max_position_embeddings {})",
                      overrides.earlier->source_config ? "the config it was converted from," : "the earlier version",
                      overrides.earlier->source, overrides.earlier->declared);
      bound.from = Provenance::derived(bound.evidence, model.max_position_embeddings.from.pointer);
      out.bound = std::move(bound);
    }
  }
  return out;
}

// Bounds one setup's phases by the longest length training covered.
void apply_bound(const TrainedLength& bound, SetupAudit& audit) {
  if (audit.extension_tokens > bound.tokens) {
    if (bound.tokens > audit.pretrain_tokens) {
      audit.extension_tokens = bound.tokens;
      audit.extension_from = bound.from;
    } else {
      audit.extension_tokens = 0;
      audit.pretrain_tokens = bound.tokens;
      audit.pretrain_from = bound.from;
    }
  } else if (audit.extension_tokens == 0 && audit.pretrain_tokens > bound.tokens) {
    audit.pretrain_tokens = bound.tokens;
    audit.pretrain_from = bound.from;
  }
}

void describe_trained_length(const Model& model, const RopeSetup& trained, const TrainingOverrides& overrides,
                             SetupAudit& audit) {
  const Provenance& from = audit.pretrain_from;
  const Provenance& declared = model.max_position_embeddings.from;
  const bool declared_key = from.origin == declared.origin && from.pointer == declared.pointer;
  std::string source = from.origin == Origin::config ? from.pointer : from.describe();
  if (from.origin == Origin::derived) source = from.note;
  if (from.origin == Origin::config && !declared_key && model.length_key(from.key()))
    source += fmt::format(", the shortest of the config's length keys; max_position_embeddings states {}",
                          model.max_position_embeddings.value);
  audit.trained_sentence = fmt::format("trained length {} ({})", audit.pretrain_tokens, source);
  audit.trained_length_noted = overrides.trained_length.has_value() ||
                               (trained.type == RopeType::default_rope && audit.extension_tokens == 0 && !declared_key);
}

bool has_static_scaling(const RopeSetup& setup) {
  return setup.type != RopeType::default_rope && setup.type != RopeType::dynamic;
}

std::pair<std::int64_t, Provenance> extension_length(const RopeSetup& setup, std::int64_t pretrain,
                                                     const TrainingOverrides& options) {
  if (options.extended_length) return {*options.extended_length, Provenance::derived("--extended-length")};
  if (has_static_scaling(setup) && setup.max_position_embeddings.value > pretrain)
    return {setup.max_position_embeddings.value, setup.max_position_embeddings.from};
  return {0, Provenance::derived("no extension phase: no static scaling, or declared length = pretraining length")};
}

// The setup of the config as trained that the audited setup runs in place of. An edit that changes the rotary
// layout (a different head_dim, or a new layer schedule) leaves no such setup: its own phases are used.
const RopeSetup& trained_setup(const Model& model, int index, const TrainingHistory& history) {
  const RopeSetup& running = model.setups[static_cast<std::size_t>(index)];
  if (!history.as_trained || static_cast<std::size_t>(index) >= history.as_trained->setups.size()) return running;
  const RopeSetup& trained = history.as_trained->setups[static_cast<std::size_t>(index)];
  return trained.rotary_dim == running.rotary_dim && trained.name == running.name ? trained : running;
}

// What keeps the pair figures from being computed: normalize put a stand-in head_dim in place of one it could
// not derive (CFG003), or a scaling factor is zero or negative (CFG001), which leaves the scaled frequencies
// undefined (transformers divides by it and takes its logarithm).
std::optional<std::string> missing_for_pairs(const Model& model) {
  for (const auto& issue : model.issues) {
    if (const auto* underivable = std::get_if<UnderivableHeadDim>(&issue.detail))
      return "head_dim: " + underivable->reason();
    if (const auto* invalid = std::get_if<InvalidValue>(&issue.detail);
        invalid && invalid->field == "factor" && invalid->reason == InvalidReason::not_positive)
      return fmt::format("factor: {} at {} is not positive, so the scaled frequencies are undefined", invalid->value,
                         issue.pointer);
  }
  return std::nullopt;
}

// What keeps the trained length from being known: a GGUF rope_freqs tensor that is no llama3 closed form holds
// the frequencies but not the length they were trained at before scaling. --trained-length supplies it.
std::optional<std::string> unknown_trained_length(const Model& as_trained, const TrainingOverrides& overrides) {
  if (overrides.trained_length) return std::nullopt;
  for (const auto& issue : as_trained.issues)
    if (std::holds_alternative<UnrecoverableRopeFreqs>(issue.detail))
      return fmt::format(
          "trained length: {} holds per-pair frequency divisors that are no llama3 closed form, so the length "
          "trained before scaling is not in the file (give it with --trained-length)",
          issue.pointer);
  return std::nullopt;
}

bool all_finite(const std::vector<double>& values) {
  return std::all_of(values.begin(), values.end(), [](double v) { return std::isfinite(v); });
}

SetupAudit audit_setup(const Model& model, int index, std::int64_t target_tokens, const TrainingHistory& history,
                       const TrainedLengthBound& bound) {
  const RopeSetup& setup = model.setups[static_cast<std::size_t>(index)];
  const RopeSetup& trained = trained_setup(model, index, history);
  SetupAudit audit;
  audit.setup = index;
  const auto window = setup.window_tokens ? setup.window_tokens->value : std::numeric_limits<std::int64_t>::max();
  audit.attended_tokens = std::min(target_tokens, window);
  std::tie(audit.pretrain_tokens, audit.pretrain_from) =
      pretrain_length(history.as_trained ? *history.as_trained : model, trained, history.overrides, bound);
  std::tie(audit.extension_tokens, audit.extension_from) =
      extension_length(trained, audit.pretrain_tokens, history.overrides);
  if (bound.bound) apply_bound(*bound.bound, audit);
  describe_trained_length(history.as_trained ? *history.as_trained : model, trained, history.overrides, audit);
  audit.missing = missing_for_pairs(model);
  if (!audit.missing)
    audit.missing = unknown_trained_length(history.as_trained ? *history.as_trained : model, history.overrides);
  if (audit.missing) return audit;

  const RopeTable pretrain = compute_rope_table(trained, audit.pretrain_tokens);
  RopeTable extension;
  if (audit.extension_tokens > 0) extension = compute_rope_table(trained, audit.extension_tokens);
  audit.at_target = compute_rope_table(setup, target_tokens);
  if (!all_finite(pretrain.base_inv_freq) || !all_finite(extension.inv_freq) || !all_finite(audit.at_target.inv_freq)) {
    audit.missing = fmt::format(
        "frequencies: {} with rope_theta {} gives frequencies that are not finite numbers "
        "(transformers computes NaN or infinity too)",
        to_string(setup.type), setup.rope_theta.value);
    audit.at_target = {};
    return audit;
  }

  audit.pairs.reserve(audit.at_target.inv_freq.size());
  for (std::size_t i = 0; i < audit.at_target.inv_freq.size(); ++i) {
    PairAudit pair;
    pair.pair = static_cast<int>(i);
    pair.seen_rad = static_cast<double>(audit.pretrain_tokens - 1) * pretrain.base_inv_freq[i];
    if (audit.extension_tokens > 0)
      pair.seen_rad = std::max(pair.seen_rad, static_cast<double>(audit.extension_tokens - 1) * extension.inv_freq[i]);
    pair.seen_deg = pair.seen_rad * kDegreesPerRadian;
    audit.pairs.push_back(pair);
  }
  audit_needed_angles(audit, audit.at_target.inv_freq);
  return audit;
}

}  // namespace

void audit_needed_angles(SetupAudit& audit, const std::vector<double>& inv_freq) {
  audit.out_of_range_pairs.clear();
  audit.worst_pair.reset();
  for (std::size_t i = 0; i < audit.pairs.size() && i < inv_freq.size(); ++i) {
    PairAudit& pair = audit.pairs[i];
    pair.needed_rad = static_cast<double>(audit.attended_tokens - 1) * inv_freq[i];
    pair.needed_deg = pair.needed_rad * kDegreesPerRadian;
    pair.out_of_range = pair.seen_rad < kTwoPi && pair.needed_rad > kOutOfRangeTolerance * pair.seen_rad;
    pair.unseen_arc_deg = 0.0;
    if (!pair.out_of_range) continue;
    pair.unseen_arc_deg = (std::min(pair.needed_rad, kTwoPi) - pair.seen_rad) * kDegreesPerRadian;
    audit.out_of_range_pairs.push_back(pair.pair);
    if (!audit.worst_pair ||
        pair.unseen_arc_deg > audit.pairs[static_cast<std::size_t>(*audit.worst_pair)].unseen_arc_deg)
      audit.worst_pair = pair.pair;
  }
}

std::string_view to_string(TrainedFrom from) {
  switch (from) {
    case TrainedFrom::known_base: return "known_base";
    case TrainedFrom::earlier_version: return "earlier_version";
    case TrainedFrom::source_config: return "source_config";
  }
  return "known_base";
}

std::optional<std::string> Audit::pair_figures_missing() const {
  for (const SetupAudit& setup : setups)
    if (setup.missing) return setup.missing;
  return std::nullopt;
}

std::int64_t resolve_target(std::optional<std::int64_t> requested, const Model& model) {
  return std::max<std::int64_t>(requested.value_or(model.declared_length().value), 1);
}

Audit audit_model(const Model& model, std::int64_t target_tokens, const TrainingHistory& history) {
  Audit audit;
  audit.target_tokens = std::max<std::int64_t>(target_tokens, 1);
  audit.history_from_unedited = history.as_trained != nullptr;
  audit.trained = bound_trained_length(history.as_trained ? *history.as_trained : model, history.overrides);
  for (std::size_t i = 0; i < model.setups.size(); ++i)
    audit.setups.push_back(audit_setup(model, static_cast<int>(i), audit.target_tokens, history, audit.trained));
  return audit;
}

std::int64_t Audit::longest_trained() const {
  std::int64_t longest = 0;
  for (const SetupAudit& a : setups) longest = std::max({longest, a.pretrain_tokens, a.extension_tokens});
  return longest;
}

std::string rope_signature(const Model& model) {
  std::vector<std::string> setups;
  for (const RopeSetup& s : model.setups)
    setups.push_back(fmt::format("{} rotary_dim {} rope_theta {} factor {} original {}", to_string(s.type),
                                 s.rotary_dim, s.rope_theta.value, factor_of(s), stated_original(s)));
  return fmt::format("{}", fmt::join(setups, "; "));
}

EarlierVersion earlier_version(const Model& model, std::string source) {
  return {std::move(source), model.max_position_embeddings.value, longest_trained_length(model), rope_signature(model)};
}

std::int64_t longest_trained_length(const Model& model, const TrainingOverrides& overrides) {
  const TrainedLengthBound bound = bound_trained_length(model, overrides);
  std::int64_t longest = 0;
  for (const RopeSetup& setup : model.setups) {
    SetupAudit audit;
    std::tie(audit.pretrain_tokens, audit.pretrain_from) = pretrain_length(model, setup, overrides, bound);
    std::tie(audit.extension_tokens, audit.extension_from) = extension_length(setup, audit.pretrain_tokens, overrides);
    if (bound.bound) apply_bound(*bound.bound, audit);
    longest = std::max(longest, audit.extension_tokens > 0 ? audit.extension_tokens : audit.pretrain_tokens);
  }
  return longest > 0 ? longest : model.declared_length().value;
}

}  // namespace ropelens
