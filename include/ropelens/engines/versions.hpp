// Each engine's version table: the behaviours ropelens models (EngineVersion), the change that starts each one and
// the first release that has it, so that a stack can pin a release (`vllm@0.8.5`, `sglang@0.4.6`,
// `llama.cpp@b5000`) as well as a behaviour (`vllm@before-41277`). Each table lives in its engine's folder
// (src/engines/<engine>/versions.cpp) and is cited in docs/engines.md, "Versions and releases".
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ropelens/engines/engine.hpp"

namespace ropelens {

// One behaviour: the releases whose RoPE and length code agree, as far as ropelens models them.
struct VersionRow {
  EngineVersion version;
  std::string_view key;            // how --stack pins it: "main", "before-56446", "v5", "4.5x"
  std::string_view label;          // how views name it: "vLLM 0.22–0.29"
  std::string_view change;         // what starts it: "PR #41277 (dynamic NTK's formula)"; "" for the oldest
  std::string_view first_release;  // the first release with the change; "" when unreleased, or for the oldest
  std::string_view evidence;       // how that release was established (commit, PR, release notes)
};

// How an engine numbers its releases.
enum class ReleaseScheme {
  dotted,  // 0.8.5, v0.22.0, 4.57.1, 0.5.6.post2, 5.0.0rc1
  build,   // b5000
};

struct VersionTable {
  std::span<const VersionRow> rows;  // in the order views list them; rows[0] is the engine's main branch
  ReleaseScheme scheme;
  std::string_view example;         // a release as people write it: "0.8.5"
  std::string_view newest_known;    // the newest release placed in the table; a newer one runs rows[0], with a note
  std::string_view oldest_checked;  // releases before it differ in ways ropelens does not model ("" when none)
  std::string_view older_differs;   // how they differ
};

// A --stack version resolved: the behaviour it runs and, for a release ropelens cannot place exactly, why.
struct ResolvedVersion {
  EngineVersion version;
  std::optional<std::string> note;  // "vllm@0.30.0 is newer than …: read as vllm@main"
};

// A version key ("main", "before-56446") or a release ("0.8.5", "b5000") of `engine`; nullopt when `text` is
// neither.
std::optional<ResolvedVersion> resolve_version(Engine engine, std::string_view text);
// Whether `pinned` is a release of `engine` older than `release` (false for a key such as "main", or none).
bool release_before(Engine engine, std::string_view pinned, std::string_view release);
// The version an engine runs when nothing pins one: the behaviour of the newest release ropelens places
// (`newest_known`), never an unreleased change (vLLM main is `vllm@main`, an explicit choice).
EngineVersion default_version(Engine engine);
// Whether some release has the behaviour (false for a change on the main branch not yet released).
bool is_released(EngineVersion version);
// "main, before-41277, before-56446, or a release such as 0.8.5": what `@VERSION` takes for one engine.
std::string version_choices(Engine engine);
// One line of the version tables `ropelens rules` and docs/engines.md print.
struct VersionLine {
  Engine engine;
  const VersionRow* row;
  std::string first_release;  // "0.22.0", "unreleased", "before 0.22.0"
  std::string change;         // the row's change, or for the oldest behaviour that it is the oldest
};
// Every engine's behaviours, in registry order and each engine's view order.
std::vector<VersionLine> version_lines();

// A product that runs an engine's server and has releases of its own: Ollama starts llama.cpp's llama-server.
// `--stack ollama@0.5.12` pins llama.cpp as "ollama@0.5.12" (its newest behaviour, which its RoPE views follow), and
// the engine's launch reader places the product's release in its own tables ("ollama" alone: its newest release).
struct RunnerPin {
  Engine engine;             // the engine it runs
  std::string_view runner;   // "ollama"
  std::string_view release;  // "0.5.12"; "" for the newest
};
// The runner a --stack name stands for ("ollama" → llama.cpp), nullopt for any other name.
std::optional<Engine> runner_engine(std::string_view name);
// A pin written as RUNNER or RUNNER@RELEASE ("ollama@0.5.12"); nullopt for anything else.
std::optional<RunnerPin> runner_pin(std::string_view pinned);
// Whether the dotted release `release` ("0.5.12", "v0.6.7") is older than `bound`; false when either is not one.
bool dotted_release_before(std::string_view release, std::string_view bound);

}  // namespace ropelens
