// Internal: what the vLLM folder provides to its registry row (registry.cpp).
#pragma once

#include "../views.hpp"
#include "ropelens/engines/launch.hpp"
#include "ropelens/engines/registry.hpp"

namespace ropelens::engine_detail {

inline constexpr std::int64_t kVllmBlockTokens = 16;  // vLLM's default block size on CUDA

extern const VersionTable kVllmVersions;                                                                // versions.cpp
EngineView vllm_view(const Model& model, EngineVersion version, std::int64_t target_tokens);            // rope_view.cpp
KvCacheView vllm_kv_layout(const kv_detail::CachingLayers& model, std::int64_t tokens, KvDtype dtype);  // kv_cache.cpp
CacheDtypeFlag vllm_cache_dtype(KvDtype dtype, KvDtype model_dtype);
MemoryShare vllm_memory_share(const MemoryRequest& request);              // kv_cache.cpp
KvDtype vllm_served_dtype(KvDtype config_dtype);                          // kv_cache.cpp
std::vector<EngineSnippet> vllm_snippets(const SnippetRequest& request);  // serve.cpp
extern const LaunchSyntax kVllmLaunch;                                    // launch.cpp

}  // namespace ropelens::engine_detail
