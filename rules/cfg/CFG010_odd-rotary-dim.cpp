#include <cmath>
#include <map>
#include <set>
#include <string>
#include <tuple>

#include <fmt/format.h>

#include "../support.hpp"

namespace ropelens::rules {
namespace cfg010 {

constexpr std::string_view kHelp =
    "choose head_dim and partial_rotary_factor so that their product is an even whole number";

// transformers takes int(head_dim * partial_rotary_factor) (proportional RoPE rounds down to whole pairs instead), and
// so do vLLM and SGLang: the value runs, truncated, in every engine, so it is a warning. An odd or empty rotary dim
// is an error: rotate_half splits the rotated part in two, and transformers' validate_rope (2026, PR #48524) refuses
// a fully rotated odd head_dim above 4 with "RoPE requires an even rotary dimension".
static Finding report_whole(const RopeSetup& setup, Sink& out) {
  const double exact = setup.head_dim.value * setup.partial_rotary_factor.value;
  return out
      .report(setup.partial_rotary_factor.from.pointer,
              fmt::format("head_dim {} x partial_rotary_factor {} = {:.6g} is not a whole number; transformers "
                          "truncates to {}",
                          setup.head_dim.value, setup.partial_rotary_factor.value, exact, setup.rotary_dim))
      .help(std::string(kHelp));
}

static bool is_whole(const RopeSetup& setup) {
  if (setup.type == RopeType::proportional) return true;
  const double exact = setup.head_dim.value * setup.partial_rotary_factor.value;
  return std::abs(exact - std::round(exact)) <= 1e-9;
}

static std::string odd_message(const RopeSetup& setup) {
  if (setup.rotary_dim == setup.head_dim.value && setup.head_dim.value > 4)
    return fmt::format(
        "head_dim {} is odd and rotates whole: transformers refuses the config (validate_rope: \"RoPE requires an "
        "even rotary dimension\")",
        setup.head_dim.value);
  return fmt::format("rotary dim {} is odd: RoPE rotates pairs of dims", setup.rotary_dim);
}

// One finding per distinct problem: per-layer-type dicts that state the same head_dim and factor (MiMo-V2-Flash's
// full and sliding entries) are one mistake, reported at the first and related to the others.
static void check(const Context& cx, Sink& out) {
  std::map<std::tuple<int, double, int>, Finding> whole_reported;
  std::map<std::tuple<int, int>, Finding> odd_reported;
  std::set<std::string> seen_pointers;
  for (const auto& setup : cx.model.setups) {
    const std::string& at = setup.partial_rotary_factor.from.pointer;
    const bool new_pointer = seen_pointers.insert(at + "#" + std::to_string(setup.head_dim.value)).second;
    if (!is_whole(setup)) {
      auto key = std::make_tuple(setup.head_dim.value, setup.partial_rotary_factor.value, setup.rotary_dim);
      if (auto it = whole_reported.find(key); it != whole_reported.end()) {
        if (new_pointer) it->second.related(at);
      } else {
        whole_reported.emplace(key, report_whole(setup, out));
      }
    }
    if (setup.rotary_dim % 2 != 0) {
      auto key = std::make_tuple(setup.head_dim.value, setup.rotary_dim);
      if (auto it = odd_reported.find(key); it != odd_reported.end()) {
        if (new_pointer) it->second.related(at);
      } else {
        odd_reported.emplace(key, out.report_as(Severity::error, at, odd_message(setup)).help(std::string(kHelp)));
      }
    }
    if (setup.rotary_dim < 2 && new_pointer)
      out.report_as(Severity::error, setup.head_dim.from.pointer,
                    fmt::format("rotary dim {} leaves no pair to rotate", setup.rotary_dim))
          .help(std::string(kHelp));
  }
}

}  // namespace cfg010

extern const Rule CFG010{
    {"CFG010", "odd-rotary-dim", Severity::warning, "The rotary dimension is odd or not a whole number"},
    &cfg010::check};

}  // namespace ropelens::rules
