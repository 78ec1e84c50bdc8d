// SRV507: a variable with the engine's prefix (VLLM_, SGLANG_, SGL_, OLLAMA_) that the engine never reads, as the
// launch's parser found it against the engine's list (engines/launch.hpp, EngineVariables).
#include "../support.hpp"

namespace ropelens::rules {
namespace srv507 {

static void check(const Context& cx, Sink& out) { report_launch_problems(cx, LaunchProblemKind::unread_variable, out); }

}  // namespace srv507

extern const Rule SRV507{{"SRV507", "unread-variable", Severity::warning,
                          "An engine-prefixed environment variable the engine does not read"},
                         &srv507::check};

}  // namespace ropelens::rules
