// Internal: what the TensorRT-LLM folder provides to its registry row (registry.cpp).
#pragma once

#include "../views.hpp"
#include "ropelens/engines/registry.hpp"

namespace ropelens::engine_detail {

inline constexpr std::int64_t kTrtllmBlockTokens = 32;  // KvCacheConfig tokens_per_block default

extern const VersionTable kTrtllmVersions;                                                      // versions.cpp
EngineView trtllm_view(const Model& model, EngineVersion version, std::int64_t target_tokens);  // rope_view.cpp
KvCacheView trtllm_kv_layout(const kv_detail::CachingLayers& model, std::int64_t tokens,
                             KvDtype dtype);  // kv_cache.cpp
CacheDtypeFlag trtllm_cache_dtype(KvDtype dtype, KvDtype model_dtype);
MemoryShare trtllm_memory_share(const MemoryRequest& request);              // kv_cache.cpp
std::vector<EngineSnippet> trtllm_snippets(const SnippetRequest& request);  // serve.cpp

extern const LaunchSyntax kTrtllmLaunch;  // launch.cpp

}  // namespace ropelens::engine_detail
