// ExLlamaV3 (turboderp-org/exllamav3 @4f8ad012, v1.4.1): model/config.py read_rope_settings_default reads rope_theta
// (or rope_parameters->rope_theta), rope_scaling (or rope_parameters) and partial_rotary_factor from either place;
// util/rope.py RoPE builds the frequencies. YaRN takes max_position_embeddings / original_max_position_embeddings as
// its factor whenever the dict names an original length, and has no dynamic type. The length is TabbyAPI's
// (theroyallab/tabbyAPI @e632af41, backends/exllamav3/model.py): max_seq_len defaults to max_position_embeddings.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string_view>

#include <fmt/format.h>

#include "exllamav3.hpp"

namespace ropelens::engine_detail {
namespace {

constexpr std::int64_t kTabbyDefaultLength = 8192;  // max_seq_len_default in ExllamaV3Container.create

// model_type of each architecture exllamav3/architecture/architectures.py registers (Config.from_directory picks
// the class by architectures[0]; ropelens names it by the model_type that architecture carries).
constexpr std::string_view kExl3ModelTypes[] = {
    "afmoe",        "apertus",     "arcee",       "cohere",        "cohere2",      "nemotron-nas",
    "deci",         "deepseek_v3", "kimi_k2",     "deepseek_v4",   "dots1",        "ernie4_5",
    "ernie4_5_moe", "exaone4",     "gemma2",      "gemma3",        "gemma3_text",  "gemma4",
    "gemma4_text",  "glm4",        "glm4_moe",    "glm4v",         "glm4v_moe",    "gpt_oss",
    "hy_v3",        "hyperclovax", "iquestcoder", "laguna",        "lfm2_moe",     "llama",
    "mimo",         "minimax_m2",  "ministral3",  "mistral",       "mistral3",     "mixtral",
    "nanochat",     "nemotron_h",  "olmo3",       "olmo_hybrid",   "phi3",         "qwen2",
    "qwen2_5_vl",   "qwen3",       "qwen3_5",     "qwen3_5_text",  "qwen3_5_moe",  "qwen3_5_moe_text",
    "qwen3_moe",    "qwen3_next",  "qwen3_vl",    "qwen3_vl_text", "qwen3_vl_moe", "qwen3_vl_moe_text",
    "seed_oss",     "smollm3",     "solar_open",  "step3p5",       "step3p7"};

// RoPE._rope_params_*: the types RoPE.__init__ matches.
constexpr std::string_view kExl3Types[] = {"default", "mrope", "proportional", "llama3",
                                           "linear",  "yarn",  "longrope",     "su"};

bool exl3_supported(const Model& model) {
  return std::find(std::begin(kExl3ModelTypes), std::end(kExl3ModelTypes), model.model_type.value) !=
         std::end(kExl3ModelTypes);
}

std::optional<std::string> exl3_refusal(const Model& model) {
  if (!exl3_supported(model))
    return fmt::format(
        "AssertionError: Unknown architecture for model_type {} (model/config.py from_directory: "
        "exllamav3/architecture/architectures.py has no class for it)",
        model.model_type.value);
  for (const auto& setup : model.setups) {
    const std::string& name = setup.rope_type_name.value;
    if (!name.empty() && std::find(std::begin(kExl3Types), std::end(kExl3Types), name) == std::end(kExl3Types))
      return fmt::format("ValueError: Unknown rope_type: {} (util/rope.py RoPE.__init__{})", name,
                         setup.type == RopeType::dynamic ? "; ExLlamaV3 has no dynamic NTK" : "");
  }
  return std::nullopt;
}

// The dict itself names original_max_position_embeddings (a top-level one is not read by _rope_params_yarn).
bool original_in_dict(const RopeSetup& setup) {
  return original_given_in_config(setup) && !setup.pointer.empty() &&
         setup.original_max_position_embeddings->from.pointer.rfind(setup.pointer, 0) == 0;
}

// DeepSeek-V3's architecture opts into the mscale ratio (architecture/deepseek_v3.py, yarn_mscale_ratio=True).
bool exl3_mscale_ratio(const Model& model) {
  return model.model_type.value == "deepseek_v3" || model.model_type.value == "kimi_k2";
}

// rope_parameters.llama_4_scaling_beta as normalize read it (its note on Ministral 3's query scaling); 0 when absent.
double llama4_scaling_beta(const Model& model) {
  static constexpr std::string_view kPrefix = "llama_4_scaling_beta ";
  for (const auto& note : model.notes)
    if (note.rfind(kPrefix, 0) == 0) return std::strtod(note.c_str() + kPrefix.size(), nullptr);
  return 0.0;
}

// _rope_params_yarn: factor = max_position_embeddings / original when the dict names an original length, else the
// dict's factor; attention_factor when given, else gm(f, mscale)/gm(f, mscale_all_dim) for DeepSeek-V3, else gm(f).
EngineSetupView exl3_yarn_view(const Model& model, const RopeSetup& setup, int index) {
  RopeSetup served = setup;
  std::vector<Note> notes;
  double factor = stated_factor(setup);
  if (original_in_dict(setup)) {
    factor = static_cast<double>(setup.max_position_embeddings.value) /
             static_cast<double>(setup.original_max_position_embeddings->value);
    served.factor =
        Field<double>{factor, Provenance::derived(fmt::format(
                                  "util/rope.py _rope_params_yarn: max_position_embeddings {} / "
                                  "original_max_position_embeddings {}",
                                  setup.max_position_embeddings.value, setup.original_max_position_embeddings->value))};
    if (std::abs(factor - stated_factor(setup)) > 1e-12)
      notes.push_back(
          Note("the factor is max_position_embeddings {} / original_max_position_embeddings {} = {} "
               "(util/rope.py _rope_params_yarn), not the stated {}",
               setup.max_position_embeddings.value, setup.original_max_position_embeddings->value, fmt_number(factor),
               fmt_number(stated_factor(setup))));
  } else {
    served.original_max_position_embeddings = setup.max_position_embeddings;
  }
  served.yarn.mscale.reset();
  served.yarn.mscale_all_dim.reset();
  EngineSetupView view = from_table(index, compute_rope_table(served));
  view.method = RopeType::yarn;
  view.factor = factor;
  if (setup.yarn.attention_factor) {
    view.rope_magnitude = setup.yarn.attention_factor->value;
  } else if (exl3_mscale_ratio(model) && mscale_pair_truthy(setup.yarn)) {
    view.rope_magnitude =
        yarn_mscale(factor, setup.yarn.mscale->value) / yarn_mscale(factor, setup.yarn.mscale_all_dim->value);
  } else if (llama4_scaling_beta(model) != 0.0) {
    view.rope_magnitude = 1.0;  // position-dependent query scaling supersedes the static YaRN factor (Ministral 3)
    notes.push_back(
        Note("llama_4_scaling_beta {}: magnitude 1 (util/rope.py: its position-dependent scaling "
             "supersedes the YaRN attention factor)",
             fmt_number(llama4_scaling_beta(model))));
  } else {
    view.rope_magnitude = yarn_mscale(factor);
    if (mscale_pair_truthy(setup.yarn))
      notes.push_back(
          Note("mscale and mscale_all_dim are read only by DeepSeek-V3's architecture: magnitude gm({}) "
               "= {:.6g}",
               fmt_number(factor), view.rope_magnitude));
  }
  view.notes = std::move(notes);
  return view;
}

// _rope_params_longrope: long_factor when max_position_embeddings exceeds the original length, magnitude
// sqrt(1 + ln(max/original)/ln(original)); attention_factor is not read.
EngineSetupView exl3_longrope_view(const RopeSetup& setup, int index) {
  RopeSetup served = setup;
  served.longrope.attention_factor.reset();
  served.factor.reset();
  const std::int64_t original = original_or_declared(setup);
  const std::int64_t declared = setup.max_position_embeddings.value;
  EngineSetupView view = from_table(index, compute_rope_table(served, declared > original ? original + 1 : original));
  view.method = RopeType::longrope;
  const double scale = static_cast<double>(declared) / static_cast<double>(original);
  view.rope_magnitude = scale <= 1.0 ? 1.0 : std::sqrt(1.0 + std::log(scale) / std::log(static_cast<double>(original)));
  view.factor_switch = FactorSwitch::per_deployment;
  view.notes.push_back(Note("one table for the model: {} factors (max_position_embeddings {} against {})",
                            declared > original ? "long" : "short", declared, original));
  return view;
}

EngineSetupView exl3_setup_view(const Model& model, const RopeSetup& setup, int index) {
  switch (setup.type) {
    case RopeType::yarn: return exl3_yarn_view(model, setup, index);
    case RopeType::longrope: return exl3_longrope_view(setup, index);
    default: break;
  }
  EngineSetupView view = from_table(index, compute_rope_table(setup));
  view.method = setup.type;
  return view;
}

// ExllamaV3Container.create: max_seq_len is the user's, else HuggingFaceConfig.get_max_position_embeddings (the
// text config's, else the top level's), else 8192; cache_size defaults to it (rounded up to 256) and a larger
// max_seq_len is lowered to cache_size. Nothing derived from the config bounds what the user sets.
LengthLimit exl3_length(const Model& model) {
  LengthLimit limit;
  const std::int64_t declared = model.max_position_embeddings.value;
  if (declared > 0 && model.length_key("max_position_embeddings")) {
    limit.default_tokens = declared;
    limit.length_key = "max_position_embeddings";
    limit.derivation = fmt::format(
        "TabbyAPI max_seq_len defaults to max_position_embeddings {} (no factor applied); ExLlamaV3 serves what "
        "the cache holds: cache_size defaults to max_seq_len, rounded up to {}",
        declared, kExl3PageTokens);
  } else {
    limit.default_tokens = kTabbyDefaultLength;
    limit.derivation =
        fmt::format("no max_position_embeddings: TabbyAPI's default max_seq_len {}", kTabbyDefaultLength);
  }
  return limit;
}

}  // namespace

EngineView exllamav3_view(const Model& model, EngineVersion version, std::int64_t /*target_tokens*/) {
  EngineView view = empty_view(model, version);
  view.follows = "exllamav3 util/rope.py, model/config.py @4f8ad012; TabbyAPI backends/exllamav3/model.py @e632af41";
  view.length = exl3_length(model);
  view.refusal = exl3_refusal(model);
  if (view.refusal) view.notes.push_back(Note("cannot load this config: {}", *view.refusal));
  for (std::size_t i = 0; i < model.setups.size(); ++i)
    view.setups.push_back(exl3_setup_view(model, model.setups[i], static_cast<int>(i)));
  return view;
}

}  // namespace ropelens::engine_detail
