// Reader-level fuzz target for launch lines: arbitrary bytes as a shell script (shell words, then each engine's
// launch parser at its main branch), as an Ollama Modelfile when the first byte is odd, or as a Compose file or
// Kubernetes manifest (libyaml, then each container's command) when it is 2 modulo 4. Only InputError may come out;
// every launch found names its engine's length flag and asks for a positive length when it asks for one.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_support.hpp"
#include "ropelens/engines/launch.hpp"
#include "ropelens/engines/registry.hpp"

using namespace ropelens;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string path = (data[0] & 1) != 0 ? "Modelfile" : data[0] % 4 == 2 ? "compose.yaml" : "launch.sh";
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  try {
    const auto launches =
        read_launches(path, text, [](Engine engine) { return engine_row(engine).versions.rows[0].version; });
    fuzz::require(!launches.empty(), "read_launches returned no launch and threw nothing");
    for (const Launch& launch : launches) {
      fuzz::require(launch.line >= 1, "a launch before line 1");
      fuzz::require(!launch.asked_tokens || *launch.asked_tokens >= 1, "a launch asking for fewer than 1 token");
      fuzz::require(launch.slots >= 1, "a launch with fewer than 1 slot");
      for (const LaunchProblem& problem : launch.problems)
        fuzz::require(!problem.message.empty() && !problem.help.empty(), "a launch problem without words");
    }
  } catch (const InputError&) {
  }
  return 0;
}
