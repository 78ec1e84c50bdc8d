// MLX-LM's versions: ropelens models mlx_lm at v0.32.0 (d78bf58e), as mlx_lm.server and mlx_lm.generate run it, and
// LM Studio's mlx-engine (lmstudio-ai/mlx-engine @08f0c075), which runs the same model code with the context capped
// at max_position_embeddings. MLX-LM numbers releases 0.MINOR.PATCH (mlx_lm/_version.py).
#include "mlx_lm.hpp"

namespace ropelens::engine_detail {
namespace {

constexpr VersionRow kMlxLmRows[] = {
    {.version = EngineVersion::mlx_lm,
     .key = "main",
     .label = "MLX-LM",
     .change = "",
     .first_release = "",
     .evidence = "mlx_lm/_version.py is 0.32.0 at d78bf58e (2026); earlier releases were not read"},
    {.version = EngineVersion::mlx_lm_lmstudio,
     .key = "lmstudio",
     .label = "LM Studio (MLX-LM)",
     .change = "",
     .first_release = "",
     .evidence = "lmstudio-ai/mlx-engine @08f0c075: model_kit/batched_vision/context_fit.py fits the context "
                 "and caps it at max_position_embeddings, and the model runs on mlx_lm's model files"},
};

}  // namespace

const VersionTable kMlxLmVersions = {
    .rows = kMlxLmRows,
    .scheme = ReleaseScheme::dotted,
    .example = "0.32.0",
    .newest_known = "0.32.0",
    .oldest_checked = "0.32.0",
    .older_differs =
        "ropelens read MLX-LM's model files at v0.32.0 only; which of them read rope_parameters changes "
        "from release to release",
};

}  // namespace ropelens::engine_detail
