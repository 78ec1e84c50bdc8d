// SGLang's versions: ropelens models SGLang's main branch, which every release since 0.5.16 runs. PR #31232 (merged
// 2026-07-15) made YaRN read mscale and mscale_all_dim; releases before it ran gm(f)·attn_factor whatever the
// config said. Releases are 0.MINOR.PATCH[.postN], tagged from release/vX branches since 0.5.7.
#include "sglang.hpp"

namespace ropelens::engine_detail {
namespace {

constexpr VersionRow kSglangRows[] = {
    {.version = EngineVersion::sglang,
     .key = "main",
     .label = "SGLang",
     .change = "PR #31232 (YaRN reads mscale and mscale_all_dim)",
     .first_release = "0.5.16",
     .evidence = "495ae9aaa merged 2026-07-15 on main; release/v0.5.15 was cut by 2026-07-07 (cherry-picks "
                 "e2ea7aafa, 6875df337) and its docs bumped on 2026-07-13 (805385414)"},
    {.version = EngineVersion::sglang_ktransformers,
     .key = "ktransformers",
     .label = "SGLang under KTransformers",
     .change = "",
     .first_release = "",
     .evidence = "kvcache-ai/ktransformers @95009ea6 kt-kernel/python/cli/commands/run.py: `kt run` starts "
                 "python -m sglang.launch_server with --max-total-tokens 40000 and --mem-fraction-static 0.98 "
                 "unless given others"},
};

}  // namespace

const VersionTable kSglangVersions = {
    .rows = kSglangRows,
    .scheme = ReleaseScheme::dotted,
    .example = "0.4.6",
    .newest_known = "0.5.16",
    .oldest_checked = "0.5.16",
    .older_differs = "YaRN ignored mscale and mscale_all_dim before PR #31232",
};

}  // namespace ropelens::engine_detail
