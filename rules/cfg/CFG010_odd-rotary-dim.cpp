#include <cmath>
#include <set>
#include <tuple>

#include <fmt/format.h>

#include "../support.hpp"

namespace ropelens::rules {
namespace cfg010 {

constexpr std::string_view kHelp =
    "choose head_dim and partial_rotary_factor so that their product is an even whole number";

// transformers takes int(head_dim * partial_rotary_factor) (proportional RoPE rounds down to whole pairs instead), and
// so do vLLM and SGLang: the value runs, truncated, in every engine, so it is a warning. An odd or empty rotary dim
// is an error: rotate_half splits the rotated part in two.
static void check_whole(const RopeSetup& setup, Sink& out) {
  if (setup.type == RopeType::proportional) return;
  const double exact = setup.head_dim.value * setup.partial_rotary_factor.value;
  if (std::abs(exact - std::round(exact)) <= 1e-9) return;
  out.report(setup.partial_rotary_factor.from.pointer,
             fmt::format("head_dim {} x partial_rotary_factor {} = {:.6g} is not a whole number; transformers "
                         "truncates to {}",
                         setup.head_dim.value, setup.partial_rotary_factor.value, exact, setup.rotary_dim))
      .help(std::string(kHelp));
}

static void check_pairs(const RopeSetup& setup, Sink& out) {
  if (setup.rotary_dim % 2 != 0)
    out.report_as(Severity::error, setup.partial_rotary_factor.from.pointer,
                  fmt::format("rotary dim {} is odd: RoPE rotates pairs of dims", setup.rotary_dim))
        .help(std::string(kHelp));
  if (setup.rotary_dim < 2)
    out.report_as(Severity::error, setup.head_dim.from.pointer,
                  fmt::format("rotary dim {} leaves no pair to rotate", setup.rotary_dim))
        .help(std::string(kHelp));
}

static void check(const Context& cx, Sink& out) {
  std::set<std::tuple<std::string, int, double>> reported;  // a dict split by attention kind is reported once
  for (const auto& setup : cx.model.setups) {
    if (!reported.emplace(setup.pointer, setup.head_dim.value, setup.partial_rotary_factor.value).second) continue;
    check_whole(setup, out);
    check_pairs(setup, out);
  }
}

}  // namespace cfg010

extern const Rule CFG010{
    {"CFG010", "odd-rotary-dim", Severity::warning, "The rotary dimension is odd or not a whole number"},
    &cfg010::check};

}  // namespace ropelens::rules
