// SRV501: the launch line's problems of its kind, as the engine's parser found them (engines/launch.hpp).
#include "../support.hpp"

namespace ropelens::rules {
namespace srv501 {

static void check(const Context& cx, Sink& out) {
  if (!cx.launch) return;
  for (const LaunchProblem& problem : cx.launch->problems)
    if (problem.kind == LaunchProblemKind::unknown_flag)
      out.report("", problem.message)
          .at_flag(problem.flag)
          .help(problem.help)
          .fact("flag", problem.flag)
          .fact("line", cx.launch->line);
}

}  // namespace srv501

extern const Rule SRV501{
    {"SRV501", "unknown-launch-flag", Severity::error, "A launch flag the engine version does not take"},
    &srv501::check};

}  // namespace ropelens::rules
