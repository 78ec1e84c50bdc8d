// Internal: what the transformers folder provides to its registry row (registry.cpp).
#pragma once

#include "../views.hpp"
#include "ropelens/engines/registry.hpp"

namespace ropelens::engine_detail {

extern const VersionTable kTransformersVersions;                                                      // versions.cpp
EngineView transformers_view(const Model& model, EngineVersion version, std::int64_t target_tokens);  // rope_view.cpp
KvCacheView transformers_kv_layout(const kv_detail::CachingLayers& model, std::int64_t tokens,
                                   KvDtype dtype);  // kv_cache.cpp
CacheDtypeFlag transformers_cache_dtype(KvDtype dtype, KvDtype model_dtype);
std::vector<EngineSnippet> transformers_snippets(const SnippetRequest& request);  // serve.cpp
// model_classes.cpp: why this version has no class for the config's model_type (nothing when it has one).
std::optional<std::string> missing_class(const Model& model, EngineVersion version);

}  // namespace ropelens::engine_detail
