// Internal: what the MLX-LM folder provides to its registry row (registry.cpp).
#pragma once

#include "../views.hpp"
#include "ropelens/engines/registry.hpp"

namespace ropelens::engine_detail {

inline constexpr std::int64_t kMlxCacheStep = 256;  // KVCache.step: the cache grows 256 tokens at a time

extern const VersionTable kMlxLmVersions;                                                       // versions.cpp
EngineView mlx_lm_view(const Model& model, EngineVersion version, std::int64_t target_tokens);  // rope_view.cpp
KvCacheView mlx_lm_kv_layout(const kv_detail::CachingLayers& model, std::int64_t tokens,
                             KvDtype dtype);  // kv_cache.cpp
CacheDtypeFlag mlx_lm_cache_dtype(KvDtype dtype, KvDtype model_dtype);
std::vector<EngineSnippet> mlx_lm_snippets(const SnippetRequest& request);  // serve.cpp

extern const LaunchSyntax kMlxLmLaunch;  // launch.cpp

}  // namespace ropelens::engine_detail
