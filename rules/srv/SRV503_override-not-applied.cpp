// SRV503: the launch line's problems of its kind, as the engine's parser found them (engines/launch.hpp).
#include "../support.hpp"

namespace ropelens::rules {
namespace srv503 {

static void check(const Context& cx, Sink& out) {
  report_launch_problems(cx, LaunchProblemKind::ignored_override, out);
  if (!cx.launch) return;
  for (const LaunchProblem& problem : cx.launch->problems)
    if (problem.kind == LaunchProblemKind::double_scaling)
      out.report_as(Severity::warning, "", problem.message)
          .at_flag(problem.flag)
          .help(problem.help)
          .fact("flag", problem.flag)
          .fact("line", cx.launch->line);
}

}  // namespace srv503

extern const Rule SRV503{{"SRV503", "override-not-applied", Severity::error,
                          "A RoPE override on the launch line that the engine does not apply as written"},
                         &srv503::check};

}  // namespace ropelens::rules
