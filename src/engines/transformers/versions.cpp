// transformers' versions: only YaRN differs. 4.48 began replacing the factor with max/original whenever original is
// given (transformers #38224), 4.56.0 stopped it (PR #40320); before 4.48 the correction range was computed on
// max_position_embeddings and mscale/mscale_all_dim were not read (@ef468064). Releases are 4.MINOR.PATCH and 5.x.
#include "transformers.hpp"

namespace ropelens::engine_detail {
namespace {

constexpr VersionRow kTransformersRows[] = {
    {.version = EngineVersion::transformers_v5,
     .key = "v5",
     .label = "transformers v5",
     .change = "PR #40320 (an explicit YaRN factor wins over max/original)",
     .first_release = "4.56.0",
     .evidence = "transformers #38224 was closed by #40320 for 4.56.0 (docs/engines.md, \"Engine versions without "
                 "the class\")"},
    {.version = EngineVersion::transformers_4_5x,
     .key = "4.5x",
     .label = "transformers 4.5x",
     .change = "YaRN reads original_max_position_embeddings and the mscale pair, and replaces the factor by "
               "max/original (#38224)",
     .first_release = "4.48.0",
     .evidence = "rope-reference.md §2.3, \"v4.48–4.5x behaved differently\"; the PR is not pinned"},
    {.version = EngineVersion::transformers_4_4x,
     .key = "4.4x",
     .label = "transformers 4.4x",
     .change = "",
     .first_release = "",
     .evidence = "modeling_rope_utils.py @ef468064 and @0044e3b3 (≈4.44–4.45)"},
};

}  // namespace

const VersionTable kTransformersVersions = {
    .rows = kTransformersRows,
    .scheme = ReleaseScheme::dotted,
    .example = "4.57.1",
    .newest_known = "5.12",
    .oldest_checked = "4.44.0",
    .older_differs = "ropelens has not read their RoPE code",
};

}  // namespace ropelens::engine_detail
