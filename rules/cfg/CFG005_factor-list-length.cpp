#include <set>

#include <fmt/format.h>

#include "../support.hpp"

namespace ropelens::rules {
namespace cfg005 {

static void check_list(const Field<std::vector<double>>& list, std::string_view name, int pairs,
                       std::set<std::string>& reported, Sink& out) {
  const auto entries = list.value.size();
  if (entries == 0 || entries == static_cast<std::size_t>(pairs)) return;
  if (!reported.insert(list.from.pointer).second) return;  // one dict shared by several attention kinds
  out.report(list.from.pointer,
             fmt::format("{} has {} entries but the rotary dim {} has {} pairs", name, entries, pairs * 2, pairs))
      .help("give short_factor and long_factor exactly rotary_dim / 2 entries each, one divisor per pair");
}

static void check(const Context& cx, Sink& out) {
  std::set<std::string> reported;
  for (const auto& setup : cx.model.setups) {
    if (setup.type != RopeType::longrope) continue;
    const int pairs = setup.rotary_dim / 2;
    check_list(setup.longrope.short_factor, "short_factor", pairs, reported, out);
    check_list(setup.longrope.long_factor, "long_factor", pairs, reported, out);
  }
}

}  // namespace cfg005

extern const Rule CFG005{
    {"CFG005", "factor-list-length", Severity::error, "A longrope factor list does not have one entry per rotary pair"},
    &cfg005::check};

}  // namespace ropelens::rules
