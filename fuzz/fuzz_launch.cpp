// Reader-level fuzz target for launch lines: arbitrary bytes read by read_launches as the path the first byte names
// (odd: an Ollama Modelfile; 2 mod 8: a Compose file or Kubernetes manifest; 6 mod 8: a systemd unit; 4 mod 8: an
// env file; 0 mod 8: a shell script, its lines also read as a flag-only fragment of the engine bits 4-5 name), at the
// default releases or, when bit 6 is set, at old pinned releases (vLLM 0.8.5, SGLang 0.4.6, llama.cpp b5000), so the
// per-release flag tables and every launch form are reached. Only InputError may come out; every launch found names
// its engine's length flag and asks for a positive length when it asks for one.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_support.hpp"
#include "ropelens/engines/launch.hpp"
#include "ropelens/engines/registry.hpp"
#include "ropelens/engines/versions.hpp"

using namespace ropelens;

namespace {

std::string path_for(std::uint8_t first) {
  if ((first & 1) != 0) return "Modelfile";
  switch (first % 8) {
    case 2: return "compose.yaml";
    case 6: return "vllm.service";
    case 4: return "serve.env";
    case 0: return (first & 8) != 0 ? "override.conf" : "launch.sh";  // a name that says nothing: read by its text
    default: return "launch.sh";
  }
}

// Old releases of each engine, where the flag tables and value forms differ from the newest.
LaunchRelease old_release(Engine engine) {
  const std::string_view pinned = to_string(engine) == "vllm"        ? "0.8.5"
                                  : to_string(engine) == "sglang"    ? "0.4.6"
                                  : to_string(engine) == "llama.cpp" ? "b5000"
                                                                     : "";
  if (pinned.empty()) return {default_version(engine), ""};
  return {resolve_version(engine, pinned)->version, std::string(pinned)};
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string path = path_for(data[0]);
  const bool pinned = (data[0] & 0x40) != 0;
  const std::vector<Engine> engines = all_engines();
  const std::optional<Engine> fragment =
      path == "launch.sh" ? std::optional<Engine>(engines[((data[0] >> 4) & 3) % engines.size()]) : std::nullopt;
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  try {
    const auto launches = read_launches(
        path, text,
        [&](Engine engine) {
          return pinned ? old_release(engine) : LaunchRelease{default_version(engine), ""};
        },
        fragment);
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
