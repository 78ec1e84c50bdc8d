#include "../support.hpp"

namespace ropelens::rules {

static std::string help_for(const Problem& problem) {
  if (problem.is_error) return "remove the legacy type key and keep the rope_type the checkpoint was trained with";
  if (problem.message.find("'su'") != std::string::npos) return "write \"rope_type\": \"longrope\" instead of 'su'";
  if (problem.message.find("'mrope'") != std::string::npos)
    return "write \"rope_type\": \"default\" and keep mrope_section";
  return "rename the key type to rope_type";
}

static void check(const Context& cx, Sink& out) {
  for (const auto& problem : cx.model.problems) {
    if (problem.code != out.meta().code) continue;
    auto severity = problem.is_error ? Severity::error : out.meta().default_severity;
    out.report_as(severity, problem.pointer, problem.message).help(help_for(problem));
  }
}

extern const Rule CFG004{{"CFG004", "legacy-rope-key", Severity::info,
                          "The RoPE dict uses a legacy spelling: type instead of rope_type, or an old method name"},
                         &check};

}  // namespace ropelens::rules
