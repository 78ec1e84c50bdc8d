// The engine registry: one row per inference engine (src/engines/registry.cpp), carrying everything ropelens knows
// about that engine as fields; each engine's folder (src/engines/<engine>/) provides what its row points to.
// Engine-neutral code (rules, suggest, fit, renderers) asks a row instead of naming an engine. EngineRow is an
// aggregate without default member initializers, filled with designated initializers, so a row that leaves a field out
// does not compile (-Wmissing-field-initializers under -Werror); a field an engine has nothing for is stated empty.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ropelens/engines/deployment.hpp"
#include "ropelens/engines/engine.hpp"
#include "ropelens/engines/engine_views.hpp"
#include "ropelens/engines/launch.hpp"
#include "ropelens/engines/snippets.hpp"
#include "ropelens/engines/versions.hpp"
#include "ropelens/memory/kv_cache.hpp"
#include "ropelens/memory/kv_layers.hpp"

namespace ropelens {

// How to start the engine's server with a context length, a KV-cache dtype and a memory share ("" where it has
// none).
struct ServeFlags {
  std::string_view launch;             // the command up to the model: "vllm serve"
  std::string_view model_flag;         // the flag before the model ("--model-path", "-m"; "" for a positional one)
  std::string_view model_placeholder;  // a shell-safe word for a model ropelens does not know: "MODEL", "MODEL.gguf"
  std::string_view context_length;     // "--max-model-len"
  std::string_view kv_cache_dtype;     // "--kv-cache-dtype"
  std::string_view memory_share;       // "--gpu-memory-utilization"
  std::string_view config_override;    // "--hf-overrides"
  std::string_view allow_longer;       // the switch that lets a length pass the derived limit
  std::string_view value_cache_dtype;  // the V cache's dtype when the engine sets it apart: "--cache-type-v"
  std::string_view tensor_parallel;    // how many GPUs the model is split over: "--tensor-parallel-size"
  // The flag of the directory a model folder is found in, when the engine takes the folder's name (model_flag)
  // rather than its path: TabbyAPI's "--model-dir". Defaulted: only such an engine's row states it.
  std::string_view model_folder_flag = "";
  // The flag that sizes the KV pool for every request together, set to the length printed, where a launcher's own
  // default would cap the length below it: kt run's "--max-total-tokens" (40000). Defaulted: only such a launch has it.
  std::string_view pool_size = "";
};

// A product that starts the engine with a command of its own (KTransformers' `kt run`, LM Studio's `lms load`): fit
// prints that command when the deployment pins the product's version.
struct ProductLaunch {
  EngineVersion version;
  ServeFlags serve;
};

// "vllm serve Qwen/Qwen3-8B": the engine's launch with `model` (a shell word, already quoted), or with its
// placeholder when `model` is empty; "" for an engine without a server.
std::string launch_command(const ServeFlags& serve, std::string_view model);

// The tokens an engine allocates its KV cache in, and how fit's table words it.
struct KvGranularity {
  std::int64_t tokens;    // 16
  std::string_view text;  // "blocks of 16 tokens"
};

// The value an engine's cache-dtype flag takes for a dtype, or why the engine has no such cache.
struct CacheDtypeFlag {
  std::string value;  // "" for an engine without the flag (transformers)
  std::optional<std::string> unsupported;
};

// How an engine splits a model over tensor-parallel GPUs (fit --tp, check --tp): by key/value heads (replicated
// when there are fewer than GPUs), or by whole layers (each GPU holding its share of the layers and their cache).
enum class TpSharding { heads, layers };

// What an engine's default share of each GPU's memory is computed from.
struct MemoryRequest {
  std::uint64_t gpu_bytes = 0;                 // one GPU's memory (--memory)
  int tp = 1;                                  // GPUs the model is split over
  const Model* model = nullptr;                // the model served
  const Deployment* deployment = nullptr;      // a pinned release can have another default
  std::optional<std::uint64_t> weights_bytes;  // the whole model's weights (--weights, else the checkpoint's), if known
};

// The share of each GPU's memory an engine takes for weights and KV cache by default, and how it is derived.
struct MemoryShare {
  double fraction = 1.0;  // 1 for an engine without such a setting: then no flag is printed
  std::string formula;    // "vLLM's default --gpu-memory-utilization since 0.21.0 (PR #38284)"; "" for none
};

// Whether an engine's older versions matter to a deployment that does not pin one.
enum class OlderVersions {
  count,             // a server: people run the release they installed
  only_when_pinned,  // a library people upgrade with their code (transformers)
};

// A name that stands for one version of an engine (`--stack lmstudio` is `mlx-lm@lmstudio`): a product that runs the
// engine's code with its own defaults.
struct VersionAlias {
  std::string_view name;  // "lmstudio"
  std::string_view key;   // the version key it pins: "lmstudio"
};

struct EngineRow {
  // Who it is.
  Engine engine;
  std::string_view name;                          // as --engine takes it and JSON prints it: "llama.cpp"
  std::string_view display_name;                  // as text prints it: "vLLM"
  std::span<const std::string_view> aliases;      // other spellings --engine and --stack accept
  std::span<const VersionAlias> version_aliases;  // names --stack takes for one of its versions (and --engine for it)
  // Covered when no stack is given; an engine outside the default stack counts only when --stack or --engine names it.
  bool in_default_stack;
  // What it runs: its versions, the RoPE view of each, and where it maps `architectures` to model classes.
  const VersionTable& versions;
  EngineView (*view)(const Model& model, EngineVersion version, std::int64_t target_tokens);
  std::string_view model_registry;
  OlderVersions older_versions;
  // Its KV cache: the layout for one sequence of N tokens, the granularity, and its cache dtypes' flag values.
  KvCacheView (*kv_layout)(const kv_detail::CachingLayers& model, std::int64_t tokens, KvDtype dtype);
  KvGranularity kv_granularity;
  CacheDtypeFlag (*cache_dtype)(KvDtype dtype, KvDtype model_dtype);
  // Its memory (fit and CTX210): the share of a GPU it takes by default, the dtype it serves a config's dtype in
  // (weights and an "auto" cache), the dtype it dequantizes a GGUF file to (none: it runs the file's own blocks),
  // and how it splits a model over GPUs.
  MemoryShare (*memory_share)(const MemoryRequest& request);
  KvDtype (*served_dtype)(KvDtype config_dtype);
  std::optional<KvDtype> gguf_dequantized;
  TpSharding tp_sharding;
  // How it is started, and a suggested RoPE change as its flags (none for an engine without a server).
  ServeFlags serve;
  std::vector<EngineSnippet> (*snippets)(const SnippetRequest& request);
  // An engine that loads GGUF files takes a change to one at run time as flags; null for the others.
  const GgufRuntime* gguf;
  // How its launch lines read (engines/launch.hpp); null for an engine without a server.
  const LaunchSyntax* launch;
  // Products that start it with their own command.
  std::span<const ProductLaunch> product_launches = {};
};

// Every engine, in the order every output lists them.
std::span<const EngineRow* const> engine_registry();
const EngineRow& engine_row(Engine engine);
// How the deployment starts the engine: a pinned product's command (kt run), else the engine's own.
const ServeFlags& serve_flags(Engine engine, const Deployment& deployment);
// The engine whose current version is what a config means (transformers v5): views are compared against it.
EngineVersion reference_version();
// The engine that loads GGUF files (the registry's one row with `gguf`).
const EngineRow& gguf_engine();

}  // namespace ropelens
