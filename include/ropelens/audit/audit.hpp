// The long-context audit: angles seen in training versus angles needed at a target length.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ropelens/model/model.hpp"
#include "ropelens/rope/rope.hpp"

namespace ropelens {

// What an earlier version of a config says about its training (the old side of a diff, the file a baseline
// saw): enough to bound a later version whose RoPE is the same.
struct EarlierVersion {
  std::string source;          // "old/config.json", "models/qwen/config.json in the baseline …"
  std::int64_t declared = 0;   // its max_position_embeddings
  std::int64_t trained = 0;    // the longest length it was trained at (longest_trained_length)
  std::string rope;            // rope_signature: the RoPE that produced it
  bool source_config = false;  // the config.json a GGUF file was converted from, not an earlier version of the file
};

// What the user says about training, over what the config implies (--trained-length, --extended-length).
struct TrainingOverrides {
  std::optional<std::int64_t> trained_length;   // L_P
  std::optional<std::int64_t> extended_length;  // L_E; 0 means there was no extension phase
  // Where trained_length was stated: "--trained-length", or the .ropelens.json pattern that gave it.
  std::string trained_length_from = "--trained-length";
  // An earlier version of the same config (the old side of a diff, the config a baseline saw): its trained
  // length bounds this one when the RoPE is unchanged, since a raised max_position_embeddings trains nothing.
  std::optional<EarlierVersion> earlier = std::nullopt;
  // false: the known bases are not matched. A GGUF file that runs another RoPE than the config it was converted
  // from is that config's model, whatever base its own RoPE and shape resemble.
  bool known_bases = true;
};

// Each setup's rotary layout and frequencies ("default rotary_dim 128 rope_theta 1000000 factor 1 original 0"),
// as a baseline records it: what an edit of max_position_embeddings alone leaves unchanged.
std::string rope_signature(const Model& model);

// `model` as the earlier version of a later config, read from `source`.
EarlierVersion earlier_version(const Model& model, std::string source);

// Where the trained length the audit uses comes from when it is shorter than the declared length although the
// RoPE is unchanged: the bound, and the evidence for it.
enum class TrainedFrom { known_base, earlier_version, source_config };
std::string_view to_string(TrainedFrom from);  // "known_base", "earlier_version", "source_config"

struct TrainedLength {
  std::int64_t tokens = 0;    // the bound: the longest length the weights were trained at
  std::int64_t declared = 0;  // max_position_embeddings as this config states it
  TrainedFrom source = TrainedFrom::known_base;
  std::string evidence;  // "Qwen3-8B (https://huggingface.co/Qwen/Qwen3-8B; 32768 native)", "the old side ..."
  std::string base;      // the known base's name, when source is known_base
  std::string card;      // its model card
  Provenance from;       // what the audit shows as the length's source
};

// The trained length a config's own keys give, bounded by the evidence outside it (TrainingHistory, the known
// bases): the one code path check, table, diff, report, suggest and fit all read it through.
struct TrainedLengthBound {
  std::optional<TrainedLength> bound;    // set when the declared length exceeds what training covered
  std::optional<std::string> ambiguous;  // the known bases the config matches, when their lengths differ
};

// Where the angles seen in training come from. An edit (--set, a suggestion) changes the configuration that
// runs, never how the weights were trained, so the phases are read from the config as trained.
struct TrainingHistory {
  const Model* as_trained = nullptr;  // the config before any edit; null: the audited config is as trained
  TrainingOverrides overrides;
};

struct PairAudit {
  int pair = 0;
  double seen_rad = 0.0;    // max over training phases of (L_p - 1) * theta_p,i
  double needed_rad = 0.0;  // (min(T, W) - 1) * theta'_i(T)
  double seen_deg = 0.0;
  double needed_deg = 0.0;
  bool out_of_range = false;
  double unseen_arc_deg = 0.0;  // (min(needed, 2pi) - seen) * 180/pi when out of range
};

struct SetupAudit {
  int setup = 0;                     // index into Model::setups
  std::int64_t attended_tokens = 0;  // min(T, W): the longest distance these layers see
  std::int64_t pretrain_tokens = 0;  // L_P
  Provenance pretrain_from;
  std::int64_t extension_tokens = 0;  // L_E, 0 when there was no extension phase
  Provenance extension_from;
  // "trained length 40960 (the known base Qwen3-8B (40960 declared, 32768 native; https://…))": the one sentence
  // check, suggest and report print for where L_P comes from. Noted when it is not what the config alone would
  // suggest (a config without scaling read at a key other than max_position_embeddings, a known base, an earlier
  // version, or a length the user stated); check and report then print it, suggest always does.
  std::string trained_sentence;
  bool trained_length_noted = false;
  RopeTable at_target;  // effective frequencies at a sequence of T tokens
  // "vLLM 0.22–0.29": on a launch line, the engine release whose frequencies the needed angles follow, when they
  // differ from the reference's (at_target); empty otherwise.
  std::string needed_angles_from;
  // What the pair figures need but the config does not give ("head_dim: no head_dim, and no hidden_size with
  // num_attention_heads"). When set, `pairs` and `out_of_range_pairs` stay empty: no figure comes from a default.
  std::optional<std::string> missing;
  std::vector<PairAudit> pairs;
  std::vector<int> out_of_range_pairs;
  std::optional<int> worst_pair;  // the out-of-range pair with the largest unseen arc
};

struct Audit {
  std::int64_t target_tokens = 1;
  bool history_from_unedited = false;  // the training phases were read from the config before its edits
  TrainedLengthBound trained;          // the evidence that bounds the declared length (CTX211)
  std::vector<SetupAudit> setups;

  // Why the pair figures could not be computed (the first setup that lacks them), or none when every setup has
  // them: rules that count or compare pairs stay silent, and table and the engine report refuse.
  std::optional<std::string> pair_figures_missing() const;
  // The longest length any setup was trained at (its extension phase when it had one); 0 without setups.
  std::int64_t longest_trained() const;
};

// The length a model is audited at: the one asked for, else the declared length; never below 1 token.
std::int64_t resolve_target(std::optional<std::int64_t> requested, const Model& model);

// The longest length `model` was trained at, over all its setups: its own keys, bounded by the known bases and
// (when given) the earlier version in `overrides`.
std::int64_t longest_trained_length(const Model& model, const TrainingOverrides& overrides = {});

// Audits every setup at `target_tokens` (from resolve_target).
Audit audit_model(const Model& model, std::int64_t target_tokens, const TrainingHistory& history = {});

// Recomputes the angles each pair needs at the target from `inv_freq` (rad/token per pair: the setup's own table,
// or what the engine a launch line starts computes), against the angles already seen in training.
void audit_needed_angles(SetupAudit& audit, const std::vector<double>& inv_freq);

constexpr double kOutOfRangeTolerance = 1.001;  // needed must exceed seen by more than 0.1%

}  // namespace ropelens
