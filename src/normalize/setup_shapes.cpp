// Checks that need the final rotary dim: factor-list lengths, M-RoPE sections, odd dims.
#include <numeric>
#include <set>

#include <fmt/format.h>

#include "normalizing.hpp"

namespace ropelens::normalize_detail {
namespace {

void check_factor_list(Normalizing& n, const Field<std::vector<double>>& list, std::string_view what, int pairs,
                       std::set<std::string>& reported) {
  if (list.value.empty() || static_cast<int>(list.value.size()) == pairs) return;
  if (!reported.insert(list.from.pointer).second) return;
  n.problems.add("CFG005", list.from.pointer,
                 fmt::format("{} has {} entries but the rotary dim {} has {} pairs", what, list.value.size(), pairs * 2,
                             pairs),
                 true);
}

}  // namespace

void check_setup_shapes(Normalizing& n) {
  std::set<std::string> reported;
  for (const auto& setup : n.model.setups) {
    int pairs = setup.rotary_dim / 2;
    if (setup.type == RopeType::longrope) {
      check_factor_list(n, setup.longrope.short_factor, "short_factor", pairs, reported);
      check_factor_list(n, setup.longrope.long_factor, "long_factor", pairs, reported);
    }
    if (!setup.mrope_section.empty()) {
      int sum = std::accumulate(setup.mrope_section.begin(), setup.mrope_section.end(), 0);
      if (sum != pairs && reported.insert(setup.pointer + "/mrope_section").second)
        n.problems.add("CFG008", setup.pointer + "/mrope_section",
                       fmt::format("mrope_section sums to {} but the rotary dim {} has {} pairs", sum, setup.rotary_dim,
                                   pairs),
                       true);
    }
    if (setup.rotary_dim % 2 != 0 && reported.insert(setup.pointer + "#odd").second)
      n.problems.add("CFG010", setup.partial_rotary_factor.from.pointer,
                     fmt::format("rotary dim {} is odd: RoPE rotates pairs of dims", setup.rotary_dim), true);
    if (setup.rotary_dim < 2 && reported.insert(setup.pointer + "#small").second)
      n.problems.add("CFG010", setup.head_dim.from.pointer,
                     fmt::format("rotary dim {} leaves no pair to rotate", setup.rotary_dim), true);
  }
}

}  // namespace ropelens::normalize_detail
