#include <numeric>
#include <set>

#include <fmt/format.h>

#include "../support.hpp"

namespace ropelens::rules {
namespace cfg008 {

static void check(const Context& cx, Sink& out) {
  std::set<std::string> reported;
  for (const auto& setup : cx.model.setups) {
    if (setup.mrope_section.empty()) continue;
    const int pairs = setup.rotary_dim / 2;
    const int sum = std::accumulate(setup.mrope_section.begin(), setup.mrope_section.end(), 0);
    const std::string pointer = setup.pointer + "/mrope_section";
    if (sum == pairs || !reported.insert(pointer).second) continue;
    out.report(pointer,
               fmt::format("mrope_section sums to {} but the rotary dim {} has {} pairs", sum, setup.rotary_dim, pairs))
        .help(
            "make mrope_section sum to rotary_dim / 2, the pairs shared out among the temporal, height and width "
            "positions");
  }
}

}  // namespace cfg008

extern const Rule CFG008{
    {"CFG008", "mrope-section-mismatch", Severity::error, "The M-RoPE sections do not add up to the rotary pairs"},
    &cfg008::check};

}  // namespace ropelens::rules
