// Internal: what the ExLlamaV3 folder provides to its registry row (registry.cpp).
#pragma once

#include "../views.hpp"
#include "ropelens/engines/registry.hpp"

namespace ropelens::engine_detail {

inline constexpr std::int64_t kExl3PageTokens = 256;  // exllamav3 PAGE_SIZE; TabbyAPI rounds cache_size up to it

extern const VersionTable kExllamav3Versions;                                                      // versions.cpp
EngineView exllamav3_view(const Model& model, EngineVersion version, std::int64_t target_tokens);  // rope_view.cpp
KvCacheView exllamav3_kv_layout(const kv_detail::CachingLayers& model, std::int64_t tokens,
                                KvDtype dtype);  // kv_cache.cpp
CacheDtypeFlag exllamav3_cache_dtype(KvDtype dtype, KvDtype model_dtype);
KvDtype exllamav3_served_dtype(KvDtype config_dtype);                          // kv_cache.cpp
std::vector<EngineSnippet> exllamav3_snippets(const SnippetRequest& request);  // serve.cpp

extern const LaunchSyntax kExllamav3Launch;  // launch.cpp

}  // namespace ropelens::engine_detail
