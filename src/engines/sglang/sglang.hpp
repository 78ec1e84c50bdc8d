// Internal: what the SGLang folder provides to its registry row (registry.cpp).
#pragma once

#include "../views.hpp"
#include "ropelens/engines/launch.hpp"
#include "ropelens/engines/registry.hpp"

namespace ropelens::engine_detail {

inline constexpr std::int64_t kSglangPageTokens = 1;  // SGLang's default page size
// What KTransformers' kt run passes to SGLang unless given others (kt-kernel/python/cli/commands/run.py @95009ea6).
inline constexpr std::int64_t kKtransformersTotalTokens = 40000;  // --max-total-tokens
inline constexpr double kKtransformersMemFraction = 0.98;         // --mem-fraction-static

extern const VersionTable kSglangVersions;                                                      // versions.cpp
EngineView sglang_view(const Model& model, EngineVersion version, std::int64_t target_tokens);  // rope_view.cpp
KvCacheView sglang_kv_layout(const kv_detail::CachingLayers& model, std::int64_t tokens,
                             KvDtype dtype);  // kv_cache.cpp
CacheDtypeFlag sglang_cache_dtype(KvDtype dtype, KvDtype model_dtype);
MemoryShare sglang_memory_share(const MemoryRequest& request);              // kv_cache.cpp
KvDtype sglang_served_dtype(KvDtype config_dtype);                          // kv_cache.cpp
std::vector<EngineSnippet> sglang_snippets(const SnippetRequest& request);  // serve.cpp
extern const LaunchSyntax kSglangLaunch;                                    // launch.cpp
namespace sglang_launch {
// Reads words[start…] as python -m sglang.launch_server's flags (launch.cpp).
void read_flags(const std::vector<std::string>& words, std::size_t start, Launch& launch);
// `kt run MODEL …` as the SGLang command KTransformers starts (kt_run.cpp); false for any other command.
bool parse_kt_run(const ShellCommand& command, Launch& launch);
}  // namespace sglang_launch

}  // namespace ropelens::engine_detail
