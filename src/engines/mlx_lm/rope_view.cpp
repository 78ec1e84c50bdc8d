// MLX-LM (ml-explore/mlx-lm @d78bf58e, v0.32.0): mlx_lm/utils.py _get_classes picks mlx_lm/models/<model_type>.py
// (MODEL_REMAPPING first), ModelArgs.from_dict keeps the config keys its dataclass names, and
// models/rope_utils.py initialize_rope builds the rotary module from rope_theta and rope_scaling. Most model files
// name rope_theta and rope_scaling only: a transformers-v5 config that states them in rope_parameters then loads
// unscaled on the class default (or fails where rope_theta has none). mlx_lm.server derives no length.
#include <algorithm>
#include <cmath>
#include <string_view>

#include <fmt/format.h>

#include "mlx_lm.hpp"

namespace ropelens::engine_detail {
namespace {

constexpr std::string_view kMlxSource = "mlx_lm/models/rope_utils.py @d78bf58e";

// mlx_lm/utils.py MODEL_REMAPPING.
std::string_view mlx_model_file(std::string_view model_type) {
  static constexpr std::pair<std::string_view, std::string_view> kRemapping[] = {{"mistral", "llama"},
                                                                                 {"llava", "mistral3"},
                                                                                 {"phi-msft", "phixtral"},
                                                                                 {"falcon_mamba", "mamba"},
                                                                                 {"joyai_llm_flash", "deepseek_v3"},
                                                                                 {"kimi_k2", "deepseek_v3"},
                                                                                 {"qwen2_5_vl", "qwen2_vl"},
                                                                                 {"minimax_m2", "minimax"},
                                                                                 {"iquestcoder", "llama"},
                                                                                 {"gemma4_unified", "gemma4"}};
  for (const auto& [from, to] : kRemapping)
    if (from == model_type) return to;
  return model_type;
}

// The model files of mlx_lm/models at d78bf58e (helpers such as rope_utils, cache or base are left out).
constexpr std::string_view kMlxModelFiles[] = {"Klear",
                                               "afm7",
                                               "afmoe",
                                               "apertus",
                                               "baichuan_m1",
                                               "bailing_moe",
                                               "bailing_moe_linear",
                                               "bitnet",
                                               "cohere",
                                               "cohere2",
                                               "dbrx",
                                               "deepseek",
                                               "deepseek_v2",
                                               "deepseek_v3",
                                               "deepseek_v32",
                                               "dots1",
                                               "ernie4_5",
                                               "ernie4_5_moe",
                                               "exaone",
                                               "exaone4",
                                               "exaone_moe",
                                               "falcon_h1",
                                               "gemma",
                                               "gemma2",
                                               "gemma3",
                                               "gemma3_text",
                                               "gemma3n",
                                               "gemma4",
                                               "gemma4_text",
                                               "glm",
                                               "glm4",
                                               "glm4_moe",
                                               "glm4_moe_lite",
                                               "glm_moe_dsa",
                                               "gpt2",
                                               "gpt_bigcode",
                                               "gpt_neox",
                                               "gpt_oss",
                                               "granite",
                                               "granitemoe",
                                               "granitemoehybrid",
                                               "helium",
                                               "hunyuan",
                                               "hunyuan_v1_dense",
                                               "internlm2",
                                               "internlm3",
                                               "iquestloopcoder",
                                               "jamba",
                                               "kimi_k25",
                                               "kimi_linear",
                                               "kimi_vl",
                                               "laguna",
                                               "lfm2",
                                               "lfm2-vl",
                                               "lfm2_moe",
                                               "lille-130m",
                                               "llama",
                                               "llama4",
                                               "llama4_text",
                                               "longcat_flash",
                                               "longcat_flash_ngram",
                                               "mamba",
                                               "mamba2",
                                               "mellum",
                                               "mimo",
                                               "mimo_v2_flash",
                                               "minicpm",
                                               "minicpm3",
                                               "minimax",
                                               "ministral3",
                                               "mistral3",
                                               "mixtral",
                                               "nanochat",
                                               "nemotron",
                                               "nemotron-nas",
                                               "nemotron_h",
                                               "olmo",
                                               "olmo2",
                                               "olmo3",
                                               "olmoe",
                                               "openelm",
                                               "phi",
                                               "phi3",
                                               "phi3small",
                                               "phimoe",
                                               "phixtral",
                                               "pixtral",
                                               "plamo",
                                               "plamo2",
                                               "qwen",
                                               "qwen2",
                                               "qwen2_moe",
                                               "qwen2_vl",
                                               "qwen3",
                                               "qwen3_5",
                                               "qwen3_5_moe",
                                               "qwen3_moe",
                                               "qwen3_next",
                                               "qwen3_vl",
                                               "qwen3_vl_moe",
                                               "recurrent_gemma",
                                               "rwkv7",
                                               "seed_oss",
                                               "smollm3",
                                               "solar_open",
                                               "stablelm",
                                               "starcoder2",
                                               "step3p5",
                                               "telechat3",
                                               "youtu_llm"};

// The files whose ModelArgs read rope_parameters (grep at d78bf58e), and the wrappers that hand their text config
// to one of them.
constexpr std::string_view kReadsRopeParameters[] = {"exaone_moe", "gemma4",   "gemma4_text", "glm_moe_dsa",
                                                     "laguna",     "lfm2",     "lfm2_moe",    "mellum",
                                                     "ministral3", "mistral3", "qwen3_5",     "qwen3_5_moe"};

// Files whose ModelArgs declare rope_theta without a default: from_dict on a config without a top-level rope_theta
// raises TypeError (missing 1 required positional argument: 'rope_theta').
constexpr std::string_view kThetaRequired[] = {"Klear",
                                               "apertus",
                                               "baichuan_m1",
                                               "bailing_moe",
                                               "bailing_moe_linear",
                                               "dots1",
                                               "ernie4_5",
                                               "ernie4_5_moe",
                                               "exaone",
                                               "exaone4",
                                               "gemma3n",
                                               "glm4",
                                               "glm4_moe",
                                               "granite",
                                               "granitemoe",
                                               "granitemoehybrid",
                                               "helium",
                                               "hunyuan",
                                               "kimi_linear",
                                               "lille-130m",
                                               "llama4",
                                               "llama4_text",
                                               "longcat_flash",
                                               "longcat_flash_ngram",
                                               "mimo_v2_flash",
                                               "minimax",
                                               "olmo3",
                                               "qwen3",
                                               "qwen3_moe",
                                               "qwen3_next",
                                               "recurrent_gemma",
                                               "solar_open",
                                               "stablelm",
                                               "telechat3"};

// Files that build their rotary module from rope_theta alone (no rope_scaling field): a config's scaling is dropped.
constexpr std::string_view kNoScalingField[] = {"Klear",       "afm7",          "baichuan_m1",
                                                "cohere",      "cohere2",       "dbrx",
                                                "ernie4_5",    "ernie4_5_moe",  "gemma",
                                                "gemma2",      "glm",           "glm4",
                                                "gpt_neox",    "helium",        "lille-130m",
                                                "llama4_text", "mimo_v2_flash", "minimax",
                                                "olmo",        "openelm",       "phi",
                                                "phi3small",   "phixtral",      "plamo",
                                                "plamo2",      "qwen",          "recurrent_gemma",
                                                "stablelm",    "starcoder2"};

// ModelArgs' rope_theta default where it has one (the rope_theta line of each file at d78bf58e).
double mlx_theta_default(std::string_view file) {
  static constexpr std::pair<std::string_view, double> kDefaults[] = {{"afm7", 50000.0},
                                                                      {"afmoe", 10000.0},
                                                                      {"bitnet", 10000.0},
                                                                      {"cohere", 8000000.0},
                                                                      {"cohere2", 50000.0},
                                                                      {"deepseek", 10000.0},
                                                                      {"deepseek_v2", 10000.0},
                                                                      {"deepseek_v3", 10000.0},
                                                                      {"deepseek_v32", 10000.0},
                                                                      {"exaone_moe", 1e6},
                                                                      {"falcon_h1", 1e11},
                                                                      {"gemma", 10000.0},
                                                                      {"gemma2", 10000.0},
                                                                      {"gemma3", 1e6},
                                                                      {"gemma3_text", 1e6},
                                                                      {"glm", 10000.0},
                                                                      {"glm4_moe_lite", 1e6},
                                                                      {"gpt_oss", 150000.0},
                                                                      {"hunyuan_v1_dense", 10000.0},
                                                                      {"internlm2", 10000.0},
                                                                      {"internlm3", 10000.0},
                                                                      {"iquestloopcoder", 500000.0},
                                                                      {"kimi_vl", 10000.0},
                                                                      {"lfm2", 1e6},
                                                                      {"lfm2_moe", 1e6},
                                                                      {"llama", 10000.0},
                                                                      {"mimo", 10000.0},
                                                                      {"minicpm", 1e6},
                                                                      {"minicpm3", 1e6},
                                                                      {"mixtral", 1e6},
                                                                      {"nanochat", 10000.0},
                                                                      {"nemotron-nas", 500000.0},
                                                                      {"nemotron", 10000.0},
                                                                      {"olmo", 10000.0},
                                                                      {"olmo2", 10000.0},
                                                                      {"olmoe", 10000.0},
                                                                      {"phi", 10000.0},
                                                                      {"phi3", 10000.0},
                                                                      {"phimoe", 10000.0},
                                                                      {"plamo", 10000.0},
                                                                      {"qwen2", 1e6},
                                                                      {"qwen2_moe", 1e6},
                                                                      {"qwen3_5", 100000.0},
                                                                      {"seed_oss", 10000.0},
                                                                      {"starcoder2", 100000.0},
                                                                      {"step3p5", 10000.0},
                                                                      {"youtu_llm", 1600000.0}};
  for (const auto& [name, theta] : kDefaults)
    if (name == file) return theta;
  return 10000.0;  // initialize_rope's own default base
}

template <std::size_t N> bool listed(const std::string_view (&list)[N], std::string_view name) {
  return std::find(std::begin(list), std::end(list), name) != std::end(list);
}

// The model file that reads the settings: the top-level model_type's, remapped.
std::string mlx_file_of(const Model& model) {
  std::string type = model.model_type.value;
  if (!model.text_pointer.empty()) {
    // model_type is the text config's when normalize descended; the wrapper's file decides support.
    if (type == "gemma3_text") return "gemma3";
    if (type == "gemma4_text") return "gemma4";
    if (type == "qwen3_vl_text") return "qwen3_vl";
    if (type == "qwen3_vl_moe_text") return "qwen3_vl_moe";
    if (type == "qwen3_5_text") return "qwen3_5";
    if (type == "qwen3_5_moe_text") return "qwen3_5_moe";
  }
  return std::string(mlx_model_file(type));
}

// The RoPE settings of a setup come from rope_parameters (transformers v5's key), not from rope_scaling/rope_theta.
bool stated_in_rope_parameters(const RopeSetup& setup) {
  return setup.pointer.find("/rope_parameters") != std::string::npos;
}
bool theta_in_rope_parameters(const RopeSetup& setup) {
  return setup.rope_theta.from.pointer.find("/rope_parameters") != std::string::npos;
}

struct MlxReading {
  std::string file;
  bool supported = true;
  bool reads_rope_parameters = false;
  bool reads_scaling = true;
  bool theta_required = false;
};

MlxReading mlx_reading(const Model& model) {
  MlxReading reading;
  reading.file = mlx_file_of(model);
  reading.supported = listed(kMlxModelFiles, reading.file);
  reading.reads_rope_parameters = listed(kReadsRopeParameters, reading.file);
  reading.reads_scaling = !listed(kNoScalingField, reading.file);
  reading.theta_required = listed(kThetaRequired, reading.file);
  return reading;
}

// Where MLX-LM stops on this config: no model file, or a rope_theta its ModelArgs requires and the config states only
// inside rope_parameters.
std::optional<std::string> mlx_refusal(const Model& model, const MlxReading& reading) {
  if (!reading.supported)
    return fmt::format("ValueError: Model type {} not supported. (mlx_lm/utils.py _get_classes)",
                       model.model_type.value);
  if (reading.reads_rope_parameters || !reading.theta_required || model.setups.empty()) return std::nullopt;
  if (!theta_in_rope_parameters(model.setups.front()) && model.states_key("rope_theta")) return std::nullopt;
  if (model.states_key("rope_theta")) return std::nullopt;
  return fmt::format(
      "TypeError: ModelArgs.__init__() missing 1 required positional argument: 'rope_theta' (mlx_lm/models/{}.py "
      "reads rope_theta and rope_scaling; this config states them in rope_parameters)",
      reading.file);
}

// The setup as the model file hands it to initialize_rope: settings it does not read are gone.
RopeSetup mlx_read_setup(const Model& model, const RopeSetup& setup, const MlxReading& reading,
                         std::vector<Note>& notes) {
  if (reading.reads_rope_parameters) return setup;
  RopeSetup read = setup;
  // A config that also states rope_theta beside rope_parameters (a v5 save of a v4 config) is read.
  const bool theta_lost = theta_in_rope_parameters(setup) && !model.states_key("rope_theta");
  const bool scaling_lost =
      setup.type != RopeType::default_rope && (stated_in_rope_parameters(setup) || !reading.reads_scaling);
  if (theta_lost) {
    const double theta = mlx_theta_default(reading.file);
    read.rope_theta = {theta,
                       Provenance::by_default(fmt::format("mlx_lm/models/{}.py ModelArgs default", reading.file))};
    notes.push_back(Note("mlx_lm/models/{}.py reads rope_theta, not rope_parameters: θ {} (its default) instead of {}",
                         reading.file, fmt_number(theta), fmt_number(setup.rope_theta.value)));
  }
  if (scaling_lost) {
    read.type = RopeType::default_rope;
    read.factor.reset();
    notes.push_back(
        reading.reads_scaling
            ? Note("mlx_lm/models/{}.py reads rope_scaling, not rope_parameters: the {} scaling (factor {}) is not run",
                   reading.file, setup.rope_type_name.value, fmt_number(stated_factor(setup)))
            : Note("mlx_lm/models/{}.py builds nn.RoPE from rope_theta alone: the {} scaling (factor {}) is not run",
                   reading.file, setup.rope_type_name.value, fmt_number(stated_factor(setup))));
  }
  return read;
}

// YarnRoPE: the correction range always floored and ceiled, original_max_position_embeddings 4096 when the dict has
// none, attention_factor not read, magnitude gm(f, mscale)/gm(f, mscale_all_dim) with defaults 1 and 0.
EngineSetupView mlx_yarn_view(const RopeSetup& setup, int index) {
  RopeSetup served = setup;
  std::vector<Note> notes;
  if (!served.yarn.truncate.value) {
    served.yarn.truncate = {true, Provenance::by_default("YarnRoPE always floors and ceils")};
    notes.push_back(Note("YarnRoPE always truncates the correction range (truncate false is not read)"));
  }
  if (!original_given_in_config(setup)) {
    served.original_max_position_embeddings = Field<std::int64_t>{4096, Provenance::by_default("YarnRoPE default")};
    notes.push_back(Note("no original_max_position_embeddings in the dict: YarnRoPE's default 4096"));
  }
  served.yarn.attention_factor.reset();
  EngineSetupView view = from_table(index, compute_rope_table(served));
  view.method = RopeType::yarn;
  view.rope_magnitude = deepseek_yarn_magnitude(setup);
  if (setup.yarn.attention_factor && std::abs(view.rope_magnitude - setup.yarn.attention_factor->value) > 1e-12)
    notes.push_back(Note("attention_factor {} is not read: magnitude gm(f, mscale)/gm(f, mscale_all_dim) = {:.6g}",
                         fmt_number(setup.yarn.attention_factor->value), view.rope_magnitude));
  view.notes = std::move(notes);
  return view;
}

// Llama3RoPE: the medium band uses strict inequalities, so a wavelength exactly at original/low_freq_factor is kept
// where transformers divides it by the factor (the other bound gives the same value either way).
EngineSetupView mlx_llama3_view(const RopeSetup& setup, int index) {
  EngineSetupView view = from_table(index, compute_rope_table(setup));
  view.method = RopeType::llama3;
  const double low_wavelen = static_cast<double>(original_or_declared(setup)) / setup.llama3.low_freq_factor.value;
  const std::vector<double> base =
      base_inverse_frequencies(setup.rope_theta.value, setup.rotary_dim, static_cast<int>(view.inv_freq.size()));
  for (std::size_t i = 0; i < view.inv_freq.size(); ++i)
    if (kTwoPi / base[i] == low_wavelen) view.inv_freq[i] = base[i];
  return view;
}

// SuScaledRoPE: long_factor always, magnitude sqrt(1 + ln(max/original)/ln(original)); attention_factor not read.
EngineSetupView mlx_longrope_view(const RopeSetup& setup, int index) {
  RopeSetup served = setup;
  served.longrope.attention_factor.reset();
  served.factor.reset();
  const std::int64_t original = original_or_declared(setup);
  EngineSetupView view = from_table(index, compute_rope_table(served, std::max<std::int64_t>(original, 1) + 1));
  view.method = RopeType::longrope;
  view.long_factors = true;
  const double scale = static_cast<double>(setup.max_position_embeddings.value) / static_cast<double>(original);
  view.rope_magnitude = scale <= 1.0 ? 1.0 : std::sqrt(1.0 + std::log(scale) / std::log(static_cast<double>(original)));
  view.notes.push_back(Note("SuScaledRoPE uses long_factor at every length (short_factor is never read)"));
  return view;
}

EngineSetupView mlx_setup_view(const RopeSetup& setup, int index, std::int64_t target_tokens) {
  switch (setup.type) {
    case RopeType::yarn: return mlx_yarn_view(setup, index);
    case RopeType::llama3: return mlx_llama3_view(setup, index);
    case RopeType::longrope: return mlx_longrope_view(setup, index);
    default: break;
  }
  const RopeTable table = compute_rope_table(setup, target_tokens);
  EngineSetupView view = from_table(index, table);
  view.method = setup.type;
  if (setup.type == RopeType::dynamic) {
    view.recomputed_per_sequence = true;
    view.effective_theta = table.effective_theta;
    view.notes.push_back(Note("DynamicNTKScalingRoPE recomputes the base for each call: {:.6g} at {} tokens",
                              table.effective_theta, target_tokens));
  }
  return view;
}

LengthLimit mlx_length(const Model& model, EngineVersion version, std::int64_t target_tokens) {
  LengthLimit limit;
  if (version == EngineVersion::mlx_lm_lmstudio) {
    const std::int64_t declared = model.max_position_embeddings.value;
    limit.limit_tokens = declared;
    limit.default_tokens = declared;
    limit.length_key = "max_position_embeddings";
    limit.derivation =
        fmt::format("mlx-engine context_fit.py caps --context-length at max_position_embeddings {}", declared);
    limit.beyond = LimitAction::warning;
    if (target_tokens > declared)
      limit.message = fmt::format("context length {} lowered to max_position_embeddings {}", target_tokens, declared);
    return limit;
  }
  limit.derivation =
      "no limit: mlx_lm.server keeps an unbounded KVCache; mlx_lm.generate --max-kv-size makes it a rotating cache "
      "that overwrites the oldest tokens";
  return limit;
}

}  // namespace

EngineView mlx_lm_view(const Model& model, EngineVersion version, std::int64_t target_tokens) {
  EngineView view = empty_view(model, version);
  view.follows = fmt::format("{}, mlx_lm/utils.py _get_classes and each model file's ModelArgs", kMlxSource);
  view.length = mlx_length(model, version, target_tokens);
  const MlxReading reading = mlx_reading(model);
  view.refusal = mlx_refusal(model, reading);
  if (view.refusal) view.notes.push_back(Note("cannot load this config: {}", *view.refusal));
  for (std::size_t i = 0; i < model.setups.size(); ++i) {
    std::vector<Note> notes;
    const RopeSetup read = mlx_read_setup(model, model.setups[i], reading, notes);
    EngineSetupView setup = mlx_setup_view(read, static_cast<int>(i), target_tokens);
    setup.notes.insert(setup.notes.begin(), notes.begin(), notes.end());
    view.setups.push_back(std::move(setup));
  }
  return view;
}

}  // namespace ropelens::engine_detail
