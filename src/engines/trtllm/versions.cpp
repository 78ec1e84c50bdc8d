// TensorRT-LLM's versions (PyTorch backend): PR #10636 (merged 2026-01-14) merged rope_parameters into the config
// before RopeParams.from_config reads it, and PR #12829 (merged 2026-04-26) moved to transformers 5.3, whose
// rope_scaling reads rope_parameters. Releases are MAJOR.MINOR.PATCH[rcN][.postN] (tensorrt_llm/version.py).
#include "trtllm.hpp"

namespace ropelens::engine_detail {
namespace {

// In the order views list them: the oldest reading before the one in between, so that configs without
// rope_parameters merge every row under the main label.
constexpr VersionRow kTrtllmRows[] = {
    {.version = EngineVersion::trtllm_current,
     .key = "main",
     .label = "TensorRT-LLM",
     .change =
         "PR #12829 (transformers 5.3: rope_scaling reads rope_parameters; per-layer dicts give full_attention's)",
     .first_release = "",
     .evidence = "merged 2026-04-26; 1.3.0rc5 (2026-02-25) still required transformers 4.57.1 (ai-dynamo/dynamo#6579); "
                 "the first release with it is not established"},
    {.version = EngineVersion::trtllm_before_10636,
     .key = "before-10636",
     .label = "TensorRT-LLM ≤ 1.2",
     .change = "",
     .first_release = "",
     .evidence = "interface.py @51ea5c96: RopeParams.from_config reads rope_theta and rope_scaling only"},
    {.version = EngineVersion::trtllm_before_12829,
     .key = "before-12829",
     .label = "TensorRT-LLM 1.3.0rc",
     .change = "PR #10636 (rope_parameters merged into the config: its rope_theta is read)",
     .first_release = "1.3.0rc1",
     .evidence = "merged 2026-01-14; 1.3.0rc1 raises the assertion #10636 added (\"Per-layer-type RoPE configuration "
                 "is not supported yet\", NVIDIA developer forum thread on TranslateGemma, 2026)"},
};

}  // namespace

const VersionTable kTrtllmVersions = {
    .rows = kTrtllmRows,
    .scheme = ReleaseScheme::dotted,
    .example = "1.2.0",
    .newest_known = "1.3",
    .oldest_checked = "",
    .older_differs = "",
};

}  // namespace ropelens::engine_detail
