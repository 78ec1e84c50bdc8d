// SRV504: the launch line's problems of its kind, as the engine's parser found them (engines/launch.hpp).
#include "../support.hpp"

namespace ropelens::rules {
namespace srv504 {

static void check(const Context& cx, Sink& out) {
  report_launch_problems(cx, LaunchProblemKind::slot_below_asked, out);
}

}  // namespace srv504

extern const Rule SRV504{
    {"SRV504", "slot-below-asked", Severity::warning, "Each request gets less context than the launch line asks for"},
    &srv504::check};

}  // namespace ropelens::rules
