// The long-context audit: angles seen in training versus angles needed at a target length.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "ropelens/model.hpp"
#include "ropelens/rope.hpp"

namespace ropelens {

struct AuditOptions {
  std::int64_t target_tokens = 0;
  std::optional<std::int64_t> trained_length;   // overrides L_P
  std::optional<std::int64_t> extended_length;  // overrides L_E; 0 means there was no extension phase
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
  int setup = 0;  // index into Model::setups
  std::int64_t target_tokens = 0;
  std::int64_t attended_tokens = 0;  // min(T, W): the longest distance these layers see
  std::int64_t pretrain_tokens = 0;  // L_P
  Provenance pretrain_from;
  std::int64_t extension_tokens = 0;  // L_E, 0 when there was no extension phase
  Provenance extension_from;
  RopeTable at_target;  // effective frequencies at a sequence of T tokens
  std::vector<PairAudit> pairs;
  std::vector<int> out_of_range_pairs;
  std::optional<int> worst_pair;  // the out-of-range pair with the largest unseen arc
};

struct Audit {
  std::int64_t target_tokens = 0;
  std::vector<SetupAudit> setups;
};

Audit audit_model(const Model& model, const AuditOptions& options);

constexpr double kOutOfRangeTolerance = 1.001;  // needed must exceed seen by more than 0.1%

}  // namespace ropelens
