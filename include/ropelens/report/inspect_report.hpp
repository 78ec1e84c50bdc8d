// What inspect prints, already computed: the normalized model, its scheme facts, a GGUF file's header facts, and the
// KV cache at a target.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "ropelens/model/diagnostic.hpp"
#include "ropelens/input/gguf.hpp"
#include "ropelens/memory/kv_cache.hpp"
#include "ropelens/load/model_loader.hpp"
#include "ropelens/report/scheme_report.hpp"

namespace ropelens {

struct InspectReport {
  const Model* model = nullptr;
  SchemeReport schemes;
  std::optional<GgufMetadata> gguf;
  std::optional<KvCacheReport> kv_cache;  // with a target
  std::vector<Diagnostic> problems;       // the findings about the config itself (CFG and GGUF rules), from check
};

struct InspectRequest {
  std::optional<std::int64_t> target_tokens;
  std::optional<KvDtype> kv_dtype;
};

InspectReport build_inspect_report(const LoadedModel& loaded, const InspectRequest& request);

}  // namespace ropelens
