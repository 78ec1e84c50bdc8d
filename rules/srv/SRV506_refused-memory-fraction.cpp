// SRV506: the launch line's problems of its kind, as the engine's parser found them (engines/launch.hpp).
#include "../support.hpp"

namespace ropelens::rules {
namespace srv506 {

static void check(const Context& cx, Sink& out) {
  report_launch_problems(cx, LaunchProblemKind::memory_fraction_refused, out);
}

}  // namespace srv506

extern const Rule SRV506{
    {"SRV506", "refused-memory-fraction", Severity::error, "A memory fraction the engine refuses at start-up"},
    &srv506::check};

}  // namespace ropelens::rules
