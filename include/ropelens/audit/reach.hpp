// How far a model reaches: the longest length at which the audit finds no pair beyond the angles seen in training
// (what CTX201 checks, one of the findings that put a target out of reach).
#pragma once

#include <cstdint>
#include <optional>

#include "ropelens/audit/audit.hpp"

namespace ropelens {

// The longest T ≤ ceiling at which no setup has an out-of-range pair, found by bisection (a length in range stays
// in range below it); the ceiling itself when it is in range, and none when the pair figures cannot be computed.
std::optional<std::int64_t> longest_in_range(const Model& model, std::int64_t ceiling,
                                             const TrainingHistory& history = {});

}  // namespace ropelens
