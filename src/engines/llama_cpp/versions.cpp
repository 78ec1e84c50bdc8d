// llama.cpp's versions: ropelens models llama.cpp's master branch after convert_hf_to_gguf.py. Its releases are
// builds numbered bNNNN, one per commit on master; PR #17945 (YaRN's attention factor as transformers computes it)
// is build b7371.
#include "llama_cpp.hpp"

namespace ropelens::engine_detail {
namespace {

constexpr VersionRow kLlamaCppRows[] = {
    {.version = EngineVersion::llama_cpp,
     .key = "main",
     .label = "llama.cpp (GGUF)",
     .change = "PR #17945 (YaRN's attention factor from mscale and mscale_all_dim)",
     .first_release = "b7371",
     .evidence = "the b7371 release (2025-12-12) lists \"models : fix the attn_factor for mistral3 graphs\""},
};

}  // namespace

const VersionTable kLlamaCppVersions = {
    .rows = kLlamaCppRows,
    .scheme = ReleaseScheme::build,
    .example = "b5000",
    .newest_known = "b7371",
    .oldest_checked = "b7371",
    .older_differs = "YaRN's attention factor ignored mscale and mscale_all_dim before PR #17945",
};

}  // namespace ropelens::engine_detail
