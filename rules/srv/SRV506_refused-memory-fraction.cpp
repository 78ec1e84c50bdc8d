// SRV506: the launch line's problems of its kind, as the engine's parser found them (engines/launch.hpp).
#include "../support.hpp"

namespace ropelens::rules {
namespace srv506 {

static void check(const Context& cx, Sink& out) {
  if (!cx.launch) return;
  for (const LaunchProblem& problem : cx.launch->problems)
    if (problem.kind == LaunchProblemKind::memory_fraction_refused)
      out.report("", problem.message)
          .at_flag(problem.flag)
          .help(problem.help)
          .fact("flag", problem.flag)
          .fact("line", cx.launch->line);
}

}  // namespace srv506

extern const Rule SRV506{
    {"SRV506", "refused-memory-fraction", Severity::error, "A memory fraction the engine refuses at start-up"},
    &srv506::check};

}  // namespace ropelens::rules
