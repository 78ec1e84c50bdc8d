// Which engine versions have a model class for a config's model_type. A version without one cannot load the config
// (AutoConfig does not recognise the model_type), so its figures are not compared with the others'. Only the
// transformers versions ropelens models separately need the table: the 4.4x view follows @ef468064 (≈4.44–4.47)
// and the 4.5x view the releases that carry #38224 (4.48–4.55; #40320 fixed it for 4.56.0). docs/engines.md
// ("Engine versions without the class") cites each row.
#include <fmt/format.h>

#include "transformers.hpp"

namespace ropelens::engine_detail {
namespace {

struct ClassAdded {
  std::string_view model_type;  // the language model's model_type, as normalize reads it
  int major, minor;             // the first transformers release with the class
  std::string_view source;      // where the class comes from
};

constexpr ClassAdded kAdded[] = {
    {"gpt_oss", 4, 55, "#39923 \"Add GPT OSS model from OpenAI\""},
    {"exaone4", 4, 54, "models/exaone4 (EXAONE-4.0's config.json is written by 4.54.0)"},
    {"olmo3", 4, 57, "#40778 \"Add Olmo3 model\" (d0af4269)"},
    {"ministral3", 5, 0, "#42498 \"[Ministral 3] Add ministral 3\""},
    {"exaone4_5_text", 5, 0, "#45471 \"Add EXAONE 4.5 implementations\""},
};

// The newest release each version's view stands for.
std::optional<std::pair<int, int>> last_release(EngineVersion version) {
  if (version == EngineVersion::transformers_4_4x) return std::pair{4, 47};
  if (version == EngineVersion::transformers_4_5x) return std::pair{4, 55};
  return std::nullopt;
}

}  // namespace

std::optional<std::string> missing_class(const Model& model, EngineVersion version) {
  const auto last = last_release(version);
  if (!last) return std::nullopt;
  for (const auto& added : kAdded) {
    if (added.model_type != model.model_type.value) continue;
    if (std::pair{added.major, added.minor} <= *last) return std::nullopt;
    return fmt::format("no class for model_type '{}' before transformers {}.{} ({})", added.model_type, added.major,
                       added.minor, added.source);
  }
  return std::nullopt;
}

}  // namespace ropelens::engine_detail
