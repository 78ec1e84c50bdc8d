// The engine registry: one row per engine, every field filled (EngineRow has no defaults, so a row that leaves one
// out does not compile). Each engine's folder holds what its row points to; adding an engine is a folder, its
// enumerators in engines/engine.hpp and a row here (docs/ARCHITECTURE.md, "Adding an engine").
#include "ropelens/engines/registry.hpp"

#include <algorithm>
#include <filesystem>

#include <fmt/format.h>

#include "ropelens/input/shell_words.hpp"
#include "ropelens/model/text.hpp"

#include "exllamav3/exllamav3.hpp"
#include "llama_cpp/llama_cpp.hpp"
#include "mlx_lm/mlx_lm.hpp"
#include "sglang/sglang.hpp"
#include "transformers/transformers.hpp"
#include "trtllm/trtllm.hpp"
#include "vllm/vllm.hpp"

namespace ropelens {
namespace {

using namespace engine_detail;

// A shell word as the shell reads it ('/a b/model' → /a b/model).
std::string unquoted_word(std::string_view word) {
  try {
    const std::vector<ShellCommand> commands = split_shell_commands(word);
    if (commands.size() == 1 && commands.front().words.size() == 1) return commands.front().words.front();
  } catch (const std::invalid_argument&) {
  }
  return std::string(word);
}

// An engine without a memory-share setting takes what it needs; one serving the config's own dtype.
MemoryShare no_memory_share(const MemoryRequest& /*request*/) { return {}; }
KvDtype same_dtype(KvDtype config_dtype) { return config_dtype; }

constexpr std::string_view kTransformersAliases[] = {"hf"};
constexpr std::string_view kLlamaCppAliases[] = {"llamacpp", "llama_cpp", "gguf"};
constexpr std::string_view kMlxLmAliases[] = {"mlx_lm", "mlx"};
constexpr std::string_view kTrtllmAliases[] = {"tensorrt-llm", "tensorrt_llm", "trt-llm"};
constexpr std::string_view kExllamav3Aliases[] = {"exl3", "tabbyapi"};
// Names that stand for one version of an engine: `--stack lmstudio` is mlx-lm@lmstudio.
constexpr VersionAlias kSglangVersionAliases[] = {{"ktransformers", "ktransformers"}, {"kt", "ktransformers"}};
constexpr VersionAlias kMlxLmVersionAliases[] = {{"lmstudio", "lmstudio"}, {"lm-studio", "lmstudio"}};

const EngineRow kTransformers{
    .engine = Engine::transformers,
    .name = "transformers",
    .display_name = "transformers",
    .aliases = kTransformersAliases,
    .version_aliases = {},
    .in_default_stack = true,
    .versions = kTransformersVersions,
    .view = transformers_view,
    .model_registry = "src/transformers/models/auto/modeling_auto.py",
    .older_versions = OlderVersions::only_when_pinned,
    .kv_layout = transformers_kv_layout,
    .kv_granularity = {.tokens = 1, .text = "token by token"},
    .cache_dtype = transformers_cache_dtype,
    .memory_share = no_memory_share,
    .served_dtype = same_dtype,
    .gguf_dequantized = KvDtype::f32,
    .tp_sharding = TpSharding::layers,
    .serve = {.launch = "",
              .model_flag = "",
              .model_placeholder = "",
              .context_length = "",
              .kv_cache_dtype = "",
              .memory_share = "",
              .config_override = "",
              .allow_longer = "",
              .value_cache_dtype = "",
              .tensor_parallel = ""},
    .snippets = transformers_snippets,
    .gguf = nullptr,
    .launch = nullptr,
};

const EngineRow kVllm{
    .engine = Engine::vllm,
    .name = "vllm",
    .display_name = "vLLM",
    .aliases = {},
    .version_aliases = {},
    .in_default_stack = true,
    .versions = kVllmVersions,
    .view = vllm_view,
    .model_registry = "vllm/model_executor/models/registry.py",
    .older_versions = OlderVersions::count,
    .kv_layout = vllm_kv_layout,
    .kv_granularity = {.tokens = kVllmBlockTokens, .text = "blocks of 16 tokens"},
    .cache_dtype = vllm_cache_dtype,
    .memory_share = vllm_memory_share,
    .served_dtype = vllm_served_dtype,
    .gguf_dequantized = std::nullopt,
    .tp_sharding = TpSharding::heads,
    .serve = {.launch = "vllm serve",
              .model_flag = "",
              .model_placeholder = "MODEL",
              .context_length = "--max-model-len",
              .kv_cache_dtype = "--kv-cache-dtype",
              .memory_share = "--gpu-memory-utilization",
              .config_override = "--hf-overrides",
              .allow_longer = "VLLM_ALLOW_LONG_MAX_MODEL_LEN=1",
              .value_cache_dtype = "",
              .tensor_parallel = "--tensor-parallel-size"},
    .snippets = vllm_snippets,
    .gguf = nullptr,
    .launch = &kVllmLaunch,
};

// kvcache-ai/ktransformers @95009ea6 run.py: MODEL positional, the other SGLang flags passed on, kt's own
// --max-total-tokens (40000 unless given) and --tensor-parallel-size (the GPUs found unless given).
constexpr ProductLaunch kSglangProducts[] = {
    {.version = EngineVersion::sglang_ktransformers,
     .serve = {.launch = "kt run",
               .model_flag = "",
               .model_placeholder = "MODEL",
               .context_length = "--context-length",
               .kv_cache_dtype = "--kv-cache-dtype",
               .memory_share = "--mem-fraction-static",
               .config_override = "--json-model-override-args",
               .allow_longer = "SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1",
               .value_cache_dtype = "",
               .tensor_parallel = "--tensor-parallel-size",
               .pool_size = "--max-total-tokens"}},
};

const EngineRow kSglang{
    .engine = Engine::sglang,
    .name = "sglang",
    .display_name = "SGLang",
    .aliases = {},
    .version_aliases = kSglangVersionAliases,
    .in_default_stack = true,
    .versions = kSglangVersions,
    .view = sglang_view,
    .model_registry = "python/sglang/srt/models/registry.py",
    .older_versions = OlderVersions::count,
    .kv_layout = sglang_kv_layout,
    .kv_granularity = {.tokens = kSglangPageTokens, .text = "pages of 1 token"},
    .cache_dtype = sglang_cache_dtype,
    .memory_share = sglang_memory_share,
    .served_dtype = sglang_served_dtype,
    .gguf_dequantized = std::nullopt,
    .tp_sharding = TpSharding::heads,
    .serve = {.launch = "python -m sglang.launch_server",
              .model_flag = "--model-path",
              .model_placeholder = "MODEL",
              .context_length = "--context-length",
              .kv_cache_dtype = "--kv-cache-dtype",
              .memory_share = "--mem-fraction-static",
              .config_override = "--json-model-override-args",
              .allow_longer = "SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1",
              .value_cache_dtype = "",
              .tensor_parallel = "--tp-size"},
    .snippets = sglang_snippets,
    .gguf = nullptr,
    .launch = &kSglangLaunch,
    .product_launches = kSglangProducts,
};

const EngineRow kLlamaCpp{
    .engine = Engine::llama_cpp,
    .name = "llama.cpp",
    .display_name = "llama.cpp",
    .aliases = kLlamaCppAliases,
    .version_aliases = {},
    .in_default_stack = true,
    .versions = kLlamaCppVersions,
    .view = llama_cpp_view,
    .model_registry = "src/llama-arch.cpp",
    .older_versions = OlderVersions::count,
    .kv_layout = llama_cpp_kv_layout,
    .kv_granularity = {.tokens = kLlamaCppPadding, .text = "cells padded to 256"},
    .cache_dtype = llama_cpp_cache_dtype,
    .memory_share = no_memory_share,
    .served_dtype = same_dtype,
    .gguf_dequantized = std::nullopt,
    .tp_sharding = TpSharding::layers,
    .serve = {.launch = "llama-server",
              .model_flag = "-m",
              .model_placeholder = "MODEL.gguf",
              .context_length = "-c",
              .kv_cache_dtype = "--cache-type-k",
              .memory_share = "",
              .config_override = "--override-kv",
              .allow_longer = "",
              .value_cache_dtype = "--cache-type-v",
              .tensor_parallel = ""},
    .snippets = llama_cpp_snippets,
    .gguf = &kLlamaCppGguf,
    .launch = &kLlamaCppLaunch,
};

// lmstudio-ai/lms @07b7252d load.ts: the model key positional, -c/--context-length.
constexpr ProductLaunch kMlxLmProducts[] = {
    {.version = EngineVersion::mlx_lm_lmstudio,
     .serve = {.launch = "lms load",
               .model_flag = "",
               .model_placeholder = "MODEL",
               .context_length = "--context-length",
               .kv_cache_dtype = "",
               .memory_share = "",
               .config_override = "",
               .allow_longer = "",
               .value_cache_dtype = "",
               .tensor_parallel = ""}},
};

const EngineRow kMlxLm{
    .engine = Engine::mlx_lm,
    .name = "mlx-lm",
    .display_name = "MLX-LM",
    .aliases = kMlxLmAliases,
    .version_aliases = kMlxLmVersionAliases,
    .in_default_stack = false,
    .versions = kMlxLmVersions,
    .view = mlx_lm_view,
    .model_registry = "mlx_lm/utils.py",
    .older_versions = OlderVersions::count,
    .kv_layout = mlx_lm_kv_layout,
    .kv_granularity = {.tokens = kMlxCacheStep, .text = "steps of 256 tokens"},
    .cache_dtype = mlx_lm_cache_dtype,
    .memory_share = no_memory_share,
    .served_dtype = same_dtype,
    .gguf_dequantized = std::nullopt,
    .tp_sharding = TpSharding::layers,
    .serve = {.launch = "mlx_lm.server",
              .model_flag = "--model",
              .model_placeholder = "MODEL",
              .context_length = "",
              .kv_cache_dtype = "",
              .memory_share = "",
              .config_override = "",
              .allow_longer = "",
              .value_cache_dtype = "",
              .tensor_parallel = ""},
    .snippets = mlx_lm_snippets,
    .gguf = nullptr,
    .launch = &kMlxLmLaunch,
    .product_launches = kMlxLmProducts,
};

const EngineRow kTrtllm{
    .engine = Engine::trtllm,
    .name = "trtllm",
    .display_name = "TensorRT-LLM",
    .aliases = kTrtllmAliases,
    .version_aliases = {},
    .in_default_stack = false,
    .versions = kTrtllmVersions,
    .view = trtllm_view,
    .model_registry = "tensorrt_llm/_torch/models/modeling_utils.py",
    .older_versions = OlderVersions::count,
    .kv_layout = trtllm_kv_layout,
    .kv_granularity = {.tokens = kTrtllmBlockTokens, .text = "blocks of 32 tokens"},
    .cache_dtype = trtllm_cache_dtype,
    .memory_share = trtllm_memory_share,
    .served_dtype = same_dtype,
    .gguf_dequantized = std::nullopt,
    .tp_sharding = TpSharding::heads,
    .serve = {.launch = "trtllm-serve",
              .model_flag = "",
              .model_placeholder = "MODEL",
              .context_length = "--max_seq_len",
              .kv_cache_dtype = "",
              .memory_share = "",
              .config_override = "",
              .allow_longer = "",
              .value_cache_dtype = "",
              .tensor_parallel = "--tp_size"},
    .snippets = trtllm_snippets,
    .gguf = nullptr,
    .launch = &kTrtllmLaunch,
};

const EngineRow kExllamav3{
    .engine = Engine::exllamav3,
    .name = "exllamav3",
    .display_name = "ExLlamaV3",
    .aliases = kExllamav3Aliases,
    .version_aliases = {},
    .in_default_stack = false,
    .versions = kExllamav3Versions,
    .view = exllamav3_view,
    .model_registry = "exllamav3/architecture/architectures.py",
    .older_versions = OlderVersions::count,
    .kv_layout = exllamav3_kv_layout,
    .kv_granularity = {.tokens = kExl3PageTokens, .text = "pages of 256 tokens"},
    .cache_dtype = exllamav3_cache_dtype,
    .memory_share = no_memory_share,
    .served_dtype = exllamav3_served_dtype,
    .gguf_dequantized = std::nullopt,
    .tp_sharding = TpSharding::heads,
    .serve = {.launch = "python main.py",
              .model_flag = "--model-name",
              .model_placeholder = "MODEL",
              .context_length = "--max-seq-len",
              .kv_cache_dtype = "--cache-mode",
              .memory_share = "",
              .config_override = "",
              .allow_longer = "",
              .value_cache_dtype = "",
              .tensor_parallel = "",
              .model_folder_flag = "--model-dir"},
    .snippets = exllamav3_snippets,
    .gguf = nullptr,
    .launch = &kExllamav3Launch,
};

// In the order every output lists the engines; the reference engine first.
const EngineRow* const kRegistry[] = {&kTransformers, &kVllm, &kSglang, &kLlamaCpp, &kMlxLm, &kTrtllm, &kExllamav3};

}  // namespace

std::span<const EngineRow* const> engine_registry() { return kRegistry; }

std::string launch_command(const ServeFlags& serve, std::string_view model) {
  if (serve.launch.empty()) return "";
  const std::string_view word = model.empty() ? serve.model_placeholder : model;
  if (!serve.model_folder_flag.empty() && !model.empty()) {
    // A folder under a model directory (TabbyAPI): the directory and the folder's name, each its own word.
    const std::filesystem::path path(unquoted_word(model));
    std::filesystem::path folder = path.has_filename() ? path : path.parent_path();
    // "." (fit config.json in the model's folder) has no name to give: the folder is named by its absolute path.
    if (folder.empty() || folder.filename() == "." || folder.filename() == "..") {
      folder = std::filesystem::absolute(folder).lexically_normal();
      if (!folder.has_filename()) folder = folder.parent_path();
    }
    const std::string parent = folder.has_parent_path() ? folder.parent_path().string() : ".";
    return fmt::format("{} {} {} {} {}", serve.launch, serve.model_folder_flag, shell_word(parent), serve.model_flag,
                       shell_word(folder.filename().string()));
  }
  if (serve.model_flag.empty()) return fmt::format("{} {}", serve.launch, word);
  return fmt::format("{} {} {}", serve.launch, serve.model_flag, word);
}

const EngineRow& engine_row(Engine engine) {
  for (const EngineRow* row : kRegistry)
    if (row->engine == engine) return *row;
  return *kRegistry[0];
}

const ServeFlags& serve_flags(Engine engine, const Deployment& deployment) {
  const EngineRow& row = engine_row(engine);
  for (const ProductLaunch& product : row.product_launches)
    if (deployment.pins(product.version)) return product.serve;
  return row.serve;
}

EngineVersion reference_version() { return EngineVersion::transformers_v5; }

const EngineRow& gguf_engine() {
  const auto row = std::find_if(std::begin(kRegistry), std::end(kRegistry), [](const EngineRow* r) { return r->gguf; });
  return **row;
}

}  // namespace ropelens
