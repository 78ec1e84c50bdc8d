// The longest in-range length: the audit itself, run at the lengths a bisection asks for.
#include "ropelens/audit/reach.hpp"

#include <algorithm>

namespace ropelens {
namespace {

bool in_range(const Audit& audit) {
  return std::all_of(audit.setups.begin(), audit.setups.end(),
                     [](const SetupAudit& setup) { return setup.out_of_range_pairs.empty(); });
}

}  // namespace

std::optional<std::int64_t> longest_in_range(const Model& model, std::int64_t ceiling, const TrainingHistory& history) {
  ceiling = std::max<std::int64_t>(ceiling, 1);
  const Audit at_ceiling = audit_model(model, ceiling, history);
  if (at_ceiling.pair_figures_missing()) return std::nullopt;
  if (in_range(at_ceiling)) return ceiling;
  std::int64_t reached = 1;  // one token needs no angle
  std::int64_t beyond = ceiling;
  while (beyond - reached > 1) {
    const std::int64_t middle = reached + (beyond - reached) / 2;
    (in_range(audit_model(model, middle, history)) ? reached : beyond) = middle;
  }
  return reached;
}

}  // namespace ropelens
