// SRV501: the launch line's problems of its kind, as the engine's parser found them (engines/launch.hpp).
#include "../support.hpp"

namespace ropelens::rules {
namespace srv501 {

static void check(const Context& cx, Sink& out) { report_launch_problems(cx, LaunchProblemKind::unknown_flag, out); }

}  // namespace srv501

extern const Rule SRV501{
    {"SRV501", "unknown-launch-flag", Severity::error, "A launch flag the engine version does not take"},
    &srv501::check};

}  // namespace ropelens::rules
