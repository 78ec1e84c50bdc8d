// One descriptor per engine: who it is (model/engine.hpp), the versions ropelens models, the function that builds
// its view (frequencies, magnitudes, the length rule), its serve flags, and where it registers the architectures it
// runs. Every list of engines iterates over these; the KV-cache layouts (memory/kv_cache.hpp) are chosen per engine
// by a switch over Engine, which the compiler checks for completeness.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "ropelens/engines/engine.hpp"
#include "ropelens/engines/engine_views.hpp"

namespace ropelens {

// How to start the engine's server with a context length, a KV-cache dtype and a memory share ("" where it has none).
struct ServeFlags {
  std::string_view launch;                  // the command up to the model: "vllm serve <model>"
  std::string_view context_length;          // "--max-model-len"
  std::string_view kv_cache_dtype;          // "--kv-cache-dtype"
  std::string_view memory_share;            // "--gpu-memory-utilization"
  std::string_view config_override;         // "--hf-overrides"
  std::string_view allow_longer;            // the switch that lets a length pass the derived limit
  std::string_view value_cache_dtype = {};  // the V cache's dtype when the engine sets it apart: "--cache-type-v"
};

struct EngineDescriptor {
  Engine engine = Engine::transformers;
  std::vector<EngineVersion> versions;  // newest first; the first is the version the engine ships today
  EngineView (*view)(const Model& model, EngineVersion version, std::int64_t target_tokens) = nullptr;
  ServeFlags serve;
  std::string_view model_registry;  // the file that maps `architectures` to the engine's model classes
};

// In all_engines() order.
const std::vector<EngineDescriptor>& engine_descriptors();
const EngineDescriptor& describe(Engine engine);

}  // namespace ropelens
