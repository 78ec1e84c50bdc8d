// SRV502: the launch line's problems of its kind, as the engine's parser found them (engines/launch.hpp).
#include "../support.hpp"

namespace ropelens::rules {
namespace srv502 {

static void check(const Context& cx, Sink& out) { report_launch_problems(cx, LaunchProblemKind::length_refused, out); }

}  // namespace srv502

extern const Rule SRV502{
    {"SRV502", "refused-length", Severity::error,
     "The launch asks for a length above the one the engine derives, without the variable that lifts it"},
    &srv502::check};

}  // namespace ropelens::rules
