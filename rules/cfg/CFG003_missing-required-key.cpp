#include <fmt/format.h>

#include "../support.hpp"

namespace ropelens::rules {
namespace cfg003 {

static std::string describe(const MissingRequiredKey& missing) {
  if (missing.rope_type == "su")
    return fmt::format(
        "missing {}: rope type 'su' is renamed to longrope only after transformers fills it, so "
        "loading fails with KeyError",
        missing.key);
  return fmt::format("rope type '{}' requires {}; transformers raises KeyError when loading", missing.rope_type,
                     missing.key);
}

static void check(const Context& cx, Sink& out) {
  const std::string help = "add the missing key with the value the checkpoint was trained with";
  for_each_issue<MissingRequiredKey>(cx.model, [&](const std::string& pointer, const MissingRequiredKey& missing) {
    if (missing.filled_with)
      out.report_as(Severity::warning, pointer,
                    fmt::format("rope type '{}' expects {}; transformers only warns and computes with {}",
                                missing.rope_type, missing.key, number(*missing.filled_with)))
          .help(fmt::format("add {} with the value the checkpoint was trained with", missing.key));
    else out.report(pointer, describe(missing)).help(help);
  });
  for_each_issue<UnderivableHeadDim>(cx.model, [&](const std::string& pointer, const UnderivableHeadDim& underivable) {
    out.report(pointer, "cannot derive head_dim: " + underivable.reason()).help(help);
  });
}

}  // namespace cfg003

extern const Rule CFG003{
    {"CFG003", "missing-required-key", Severity::error, "A key the RoPE method requires is absent"}, &cfg003::check};

}  // namespace ropelens::rules
