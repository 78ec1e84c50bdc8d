// vLLM's versions: PR #41277 changed dynamic NTK's formula, PR #56446 aligned YaRN with transformers and stopped
// re-scaling max_model_len. vLLM numbers releases 0.MINOR.PATCH; its release notes list the PRs of each cycle.
#include "vllm.hpp"

namespace ropelens::engine_detail {
namespace {

// In the order views list them: the legacy view comes before #41277's so that configs without dynamic NTK merge
// the two under the legacy label.
constexpr VersionRow kVllmRows[] = {
    {.version = EngineVersion::vllm_current,
     .key = "main",
     .label = "vLLM main (unreleased)",
     .change = "PR #56446 (YaRN as transformers computes it; max_model_len never re-scaled for YaRN)",
     .first_release = "",
     .evidence = "merged 2026-09-11, after v0.29.0 (released by 2026-09-09); no release since is known"},
    {.version = EngineVersion::vllm_legacy,
     .key = "before-41277",
     .label = "vLLM ≤ 0.21",
     .change = "",
     .first_release = "",
     .evidence = "every release before 0.22.0"},
    {.version = EngineVersion::vllm_dynamic_41277,
     .key = "before-56446",
     .label = "vLLM 0.22–0.29",
     .change = "PR #41277 (dynamic NTK's base from max_trained_positions)",
     .first_release = "0.22.0",
     .evidence = "117afeea4 (merged 2026-05-19) follows 287471b99 (#43004) on main, and the v0.22.0 release notes "
                 "list #43004 as this cycle's, so v0.21's branch was cut before both"},
};

}  // namespace

const VersionTable kVllmVersions = {
    .rows = kVllmRows,
    .scheme = ReleaseScheme::dotted,
    .example = "0.8.5",
    .newest_known = "0.29",
    .oldest_checked = "0.12.0",
    .older_differs = "before PR #28244 (merged 2025-11-20) YaRN always truncated its correction range",
};

}  // namespace ropelens::engine_detail
