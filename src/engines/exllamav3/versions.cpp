// ExLlamaV3's versions: ropelens models exllamav3 v1.4.1 (4f8ad012) behind TabbyAPI (e632af41, which pins 1.4.2; the
// RoPE code is 1.4.1's). Releases are MAJOR.MINOR.PATCH tags.
#include "exllamav3.hpp"

namespace ropelens::engine_detail {
namespace {

constexpr VersionRow kExllamav3Rows[] = {
    {.version = EngineVersion::exllamav3,
     .key = "main",
     .label = "ExLlamaV3",
     .change = "",
     .first_release = "",
     .evidence = "tag v1.4.1 (4f8ad012): exllamav3/util/rope.py, model/config.py; TabbyAPI e632af41"},
};

}  // namespace

const VersionTable kExllamav3Versions = {
    .rows = kExllamav3Rows,
    .scheme = ReleaseScheme::dotted,
    .example = "1.4.1",
    .newest_known = "1.4.2",
    .oldest_checked = "1.4.1",
    .older_differs = "ropelens read ExLlamaV3's RoPE code at v1.4.1 only",
};

}  // namespace ropelens::engine_detail
