#include <fmt/format.h>

#include "../support.hpp"

namespace ropelens::rules {
namespace cfg002 {

static void check(const Context& cx, Sink& out) {
  for_each_issue<UnknownRopeType>(cx.model, [&](const std::string& pointer, const UnknownRopeType& unknown) {
    out.report(pointer, fmt::format("unknown rope type '{}'; transformers knows default, linear, dynamic, yarn, "
                                    "longrope, llama3 and proportional (computed here as default)",
                                    unknown.spelled))
        .help(
            "set rope_type to default, linear, dynamic, yarn, longrope, llama3 or proportional (the method the "
            "checkpoint was trained with)");
  });
}

}  // namespace cfg002

extern const Rule CFG002{
    {"CFG002", "unknown-rope-type", Severity::error, "The RoPE type is not a method transformers implements"},
    &cfg002::check};

}  // namespace ropelens::rules
