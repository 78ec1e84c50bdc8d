// A RoPE change as each engine takes it at run time: what suggest proposes, written as the engine's own
// invocation (a config override, runtime flags). Each engine's folder writes its own (its registry row's
// `snippets`, and `gguf` for the engine that loads GGUF files).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ropelens/engines/deployment.hpp"
#include "ropelens/engines/engine.hpp"
#include "ropelens/engines/engine_views.hpp"
#include "ropelens/input/gguf.hpp"

namespace ropelens {

// The methods a change can use.
enum class RopeChangeMethod { yarn, linear, ntk_base, llama3_factor };

struct RopeChange {
  RopeChangeMethod method;
  double value = 0.0;                // the factor, or the new rope_theta
  std::int64_t target_tokens = 0;    // the length to serve
  std::int64_t original_tokens = 0;  // the length the model was trained at
};

struct EngineSnippet {
  Engine engine{};
  std::string versions;            // the engine versions this spelling is for ("" when it is the same for all)
  std::string command;             // ready to paste; "" when the engine would not run this change (see notes)
  std::vector<std::string> notes;  // why an extra key or variable is there, or what the engine runs instead
};

// What an engine needs to write a change to a config.json model as its invocation.
struct SnippetRequest {
  RopeChange change;
  const Model* edited = nullptr;                   // the config with the change applied
  const std::vector<EngineView>* views = nullptr;  // the edited config's views, as check compared them
  std::string v5_override;                         // the change as an override for versions on transformers v5
  std::string v4_override;                         // … and on transformers 4.x (the config fragment)
  const Deployment* deployment = nullptr;          // the stack: a release it pins can need an older form
  std::string model;  // the model as the engine takes it, one shell word ("" when unknown: the row's placeholder)
};

// One runtime flag and the GGUF key it stands for.
struct GgufFlag {
  std::string flag;  // as typed on the command line: "--rope-scale 4"
  std::string key;   // the metadata key it replaces ("qwen2.rope.scaling.factor"); "" for one that sets no key
  GgufValue value;
};

// How the engine that loads GGUF files takes a change to one at run time.
struct GgufRuntime {
  // The flags for the change, each with the key it stands for (so that check can verify the file as run).
  std::vector<GgufFlag> (*flags)(const GgufFile& file, const Model& model, const RopeChange& change);
  // The command that serves `quoted_path` with them.
  std::string (*command)(const std::string& quoted_path, const std::vector<GgufFlag>& flags);
};

}  // namespace ropelens
