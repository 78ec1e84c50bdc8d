// TensorRT-LLM, PyTorch backend: tensorrt_llm/_torch/attention_backend/interface.py RopeParams.from_config and
// create_rope_const_params (@51ea5c96; PRs #10636 and #12829 for rope_parameters), the RopeEmbeddingUtils tables they
// call, modules/qk_norm_attention.py compute_yarn_parameters (@034c3f0a) for Qwen3's fused QK-norm+RoPE kernel, and
// pyexecutor/model_engine.py _infer_max_seq_len_from_config and _init_max_seq_len (@1a0dc5f7) for the length.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "trtllm.hpp"

namespace ropelens::engine_detail {
namespace {

constexpr std::int64_t kTrtllmOriginalDefault = 1024;  // RopeParams.original_max_positions when none is given
constexpr std::int64_t kTrtllmLengthDefault = 2048;    // _infer_max_seq_len_from_config without max_position_embeddings

bool trt_in_rope_parameters(const std::string& pointer) {
  return pointer.find("/rope_parameters") != std::string::npos;
}

// A per-layer-type dict (rope_parameters/full_attention, …): transformers v5's nested layout.
bool trt_nested_dict(const RopeSetup& setup) {
  const auto at = setup.pointer.find("/rope_parameters/");
  return at != std::string::npos;
}

bool trt_reads_parameters_theta(EngineVersion version) { return version != EngineVersion::trtllm_before_10636; }
bool trt_reads_parameters_scaling(EngineVersion version) { return version == EngineVersion::trtllm_current; }

// The types RotaryScalingType.from_string accepts ("default" as none since the transformers-5 support).
bool trt_known_type(const RopeSetup& setup) {
  static constexpr std::string_view kTypes[] = {"default", "linear", "dynamic", "longrope", "llama3", "yarn", "mrope"};
  const std::string& name = setup.rope_type_name.value;
  return name.empty() || std::find(std::begin(kTypes), std::end(kTypes), name) != std::end(kTypes);
}

// Qwen3 (and Qwen3-MoE, which imports its attention) rotate in the fused QK-norm+RoPE kernel with
// compute_yarn_parameters' values; Qwen2 does so only for YaRN (QwenYarnAttention, modeling_qwen.py @047098b7).
bool trt_fused_qk_norm_rope(const Model& model, const RopeSetup& setup) {
  const std::string& type = model.model_type.value;
  if (type == "qwen3" || type == "qwen3_moe") return !setup.mrope_interleaved;
  return type == "qwen2" && setup.type == RopeType::yarn;
}

std::optional<std::string> trt_refusal(const Model& model, EngineVersion version) {
  for (const auto& setup : model.setups) {
    if (!trt_known_type(setup))
      return fmt::format("ValueError: Unsupported rotary scaling type: {} (RotaryScalingType.from_string)",
                         setup.rope_type_name.value);
    if (version == EngineVersion::trtllm_before_12829 && trt_nested_dict(setup))
      return std::string(
          "AssertionError: Per-layer-type RoPE configuration is not supported yet (RopeParams.from_config, PR #10636; "
          "PR #12829 reads full_attention's dict)");
  }
  return std::nullopt;
}

// The setup as RopeParams.from_config sees it in this version: a rope_theta or a scaling dict stated only in
// rope_parameters is not read before PR #10636 (θ) and PR #12829 (scaling).
RopeSetup trt_read_setup(const Model& model, const RopeSetup& setup, EngineVersion version, std::vector<Note>& notes) {
  RopeSetup read = setup;
  if (trt_in_rope_parameters(setup.rope_theta.from.pointer) && !model.states_key("rope_theta") &&
      !trt_reads_parameters_theta(version)) {
    read.rope_theta = {10000.0, Provenance::by_default("RopeParams.from_config: getattr(config, 'rope_theta', 10000)")};
    notes.push_back(Note("reads rope_theta, not rope_parameters: θ 10000 (the default) instead of {}",
                         fmt_number(setup.rope_theta.value)));
  }
  if (setup.type != RopeType::default_rope && trt_in_rope_parameters(setup.pointer) &&
      !trt_reads_parameters_scaling(version)) {
    read.type = RopeType::default_rope;
    read.factor.reset();
    notes.push_back(Note("reads rope_scaling, not rope_parameters: the {} scaling (factor {}) is not run",
                         setup.rope_type_name.value, fmt_number(stated_factor(setup))));
  }
  return read;
}

// create_sinusoidal_positions_yarn: the range always floored and ceiled, original from the config or 1024,
// attention_factor not read, cos/sin × gm(f, mscale)/gm(f, mscale_all_dim) with defaults 1 and 0.
EngineSetupView trt_yarn_view(const RopeSetup& setup, int index) {
  RopeSetup served = setup;
  std::vector<Note> notes;
  served.yarn.truncate = {true, Provenance::by_default("create_sinusoidal_positions_yarn always truncates")};
  if (!setup.yarn.truncate.value)
    notes.push_back(Note("the correction range is always truncated (truncate false is not read)"));
  if (!original_given_in_config(setup)) {
    served.original_max_position_embeddings =
        Field<std::int64_t>{kTrtllmOriginalDefault, Provenance::by_default("RopeParams.original_max_positions")};
    notes.push_back(Note("no original_max_position_embeddings: RopeParams' default {}", kTrtllmOriginalDefault));
  }
  served.yarn.attention_factor.reset();
  EngineSetupView view = from_table(index, compute_rope_table(served));
  view.method = RopeType::yarn;
  view.rope_magnitude = deepseek_yarn_magnitude(setup);
  if (setup.yarn.attention_factor && std::abs(view.rope_magnitude - setup.yarn.attention_factor->value) > 1e-12)
    notes.push_back(Note("attention_factor {} is not read: magnitude {:.6g}",
                         fmt_number(setup.yarn.attention_factor->value), view.rope_magnitude));
  view.notes = std::move(notes);
  return view;
}

// create_sinusoidal_positions_long_rope: long_factor unless the config states a max_seq_len within the original
// length; cos/sin × sqrt(1 + ln(max/original)/ln(original)), attention_factor not read.
EngineSetupView trt_longrope_view(const Model& model, const RopeSetup& setup, int index) {
  RopeSetup served = setup;
  served.longrope.attention_factor.reset();
  served.factor.reset();
  const std::int64_t original = original_or_declared(setup);
  const LengthKey* max_seq_len = model.length_key("max_seq_len");
  const bool long_factors = !max_seq_len || max_seq_len->tokens.value > original;
  EngineSetupView view = from_table(index, compute_rope_table(served, long_factors ? original + 1 : original));
  view.method = RopeType::longrope;
  const double scale = static_cast<double>(setup.max_position_embeddings.value) / static_cast<double>(original);
  view.rope_magnitude = scale <= 1.0 ? 1.0 : std::sqrt(1.0 + std::log(scale) / std::log(static_cast<double>(original)));
  view.factor_switch = FactorSwitch::per_deployment;
  view.notes.push_back(Note("RopeParams builds one table: {} factors (config max_seq_len {})",
                            long_factors ? "long" : "short",
                            max_seq_len ? std::to_string(max_seq_len->tokens.value) : "unset"));
  return view;
}

// create_sinusoidal_positions_for_attention_plugin, dynamic: the base is θ·alpha^(d/(d−2)) with Hunyuan's alpha
// (1 when the dict has none); the factor is not read, and the base is fixed.
EngineSetupView trt_dynamic_view(const RopeSetup& setup, int index) {
  RopeSetup plain = setup;
  plain.type = RopeType::default_rope;
  plain.factor.reset();
  EngineSetupView view = from_table(index, compute_rope_table(plain));
  view.method = RopeType::dynamic;
  view.notes.push_back(
      Note("dynamic scaling reads Hunyuan's alpha, not factor {}: the base stays θ when alpha is "
           "absent",
           fmt_number(stated_factor(setup))));
  return view;
}

EngineSetupView trt_method_view(const Model& model, const RopeSetup& setup, int index) {
  switch (setup.type) {
    case RopeType::yarn: return trt_yarn_view(setup, index);
    case RopeType::longrope: return trt_longrope_view(model, setup, index);
    case RopeType::dynamic: return trt_dynamic_view(setup, index);
    case RopeType::llama3:
      if (!original_given_in_config(setup)) {
        RopeSetup served = setup;
        served.original_max_position_embeddings =
            Field<std::int64_t>{kTrtllmOriginalDefault, Provenance::by_default("RopeParams.original_max_positions")};
        EngineSetupView view = from_table(index, compute_rope_table(served));
        view.method = RopeType::llama3;
        view.notes.push_back(
            Note("no original_max_position_embeddings: RopeParams' default {}", kTrtllmOriginalDefault));
        return view;
      }
      break;
    default: break;
  }
  EngineSetupView view = from_table(index, compute_rope_table(setup));
  view.method = setup.type;
  return view;
}

// qk_norm_attention.py compute_yarn_parameters reads rope_scaling["rope_type"] with getattr, which a dict never
// answers: the fused kernel runs θ unscaled with magnitude 1, whatever the config's scaling.
EngineSetupView trt_fused_view(const RopeSetup& setup, int index) {
  RopeSetup plain = setup;
  plain.type = RopeType::default_rope;
  plain.factor.reset();
  EngineSetupView view = from_table(index, compute_rope_table(plain));
  view.method = RopeType::default_rope;
  if (setup.type != RopeType::default_rope)
    view.notes.push_back(
        Note("the fused QK-norm+RoPE kernel takes compute_yarn_parameters (qk_norm_attention.py @034c3f0a), which "
             "reads rope_scaling with getattr and so finds no {}: factor 1, magnitude 1 instead of factor {}",
             setup.rope_type_name.value, fmt_number(stated_factor(setup))));
  return view;
}

// _infer_max_seq_len_from_config: max_position_embeddings (the text config's when the top level has none; 2048 when
// neither has one) × the factor of rope_scaling unless its type is su, longrope, llama3 or yarn, rounded up.
// _init_max_seq_len lowers a larger --max_seq_len to it with a warning.
LengthLimit trt_length(const Model& model, EngineVersion version, std::int64_t target_tokens) {
  LengthLimit limit;
  std::int64_t declared = model.max_position_embeddings.value;
  std::string how = fmt::format("max_position_embeddings {}", declared);
  if (declared <= 0) {
    declared = kTrtllmLengthDefault;
    how = fmt::format("no max_position_embeddings: {}", kTrtllmLengthDefault);
  }
  double factor = 1.0;
  if (const RopeSetup* setup = deciding_setup(model);
      setup && model.text_pointer.empty() && setup->factor && !trt_nested_dict(*setup) &&
      (!trt_in_rope_parameters(setup->pointer) || trt_reads_parameters_scaling(version))) {
    static constexpr std::string_view kNotMultiplied[] = {"su", "longrope", "llama3", "yarn"};
    const std::string& type = setup->rope_type_name.value;
    if (std::find(std::begin(kNotMultiplied), std::end(kNotMultiplied), type) == std::end(kNotMultiplied))
      factor = setup->factor->value;
    else how += fmt::format(" (the {} factor is not multiplied)", type);
  }
  std::int64_t inferred = declared;
  if (factor != 1.0) {
    inferred = whole_tokens(std::ceil(static_cast<double>(declared) * factor));
    how += fmt::format(" × factor {}, rounded up", fmt_number(factor));
  }
  limit.limit_tokens = inferred;
  limit.default_tokens = inferred;
  limit.length_key = model.length_key("max_position_embeddings") ? "max_position_embeddings" : "";
  limit.derivation = how;
  limit.beyond = LimitAction::warning;
  if (target_tokens > inferred)
    limit.message = fmt::format(
        "Specified self.max_seq_len={} is larger than what the model can support ({}). Setting max_seq_len to {}.",
        target_tokens, inferred, inferred);
  limit.override_how =
      "newer model_engine.py keeps a larger --max_seq_len when allow_long_max_model_len is set; older releases always "
      "lower it";
  return limit;
}

std::string trt_follows(EngineVersion version) {
  switch (version) {
    case EngineVersion::trtllm_before_10636:
      return "interface.py @51ea5c96 RopeParams.from_config (rope_theta and rope_scaling only), model_engine.py "
             "@1a0dc5f7";
    case EngineVersion::trtllm_before_12829:
      return "interface.py after PR #10636 (rope_parameters merged into the config; scaling from rope_scaling on "
             "transformers 4.57)";
    default:
      return "interface.py after PR #12829 (transformers 5.3: rope_scaling reads rope_parameters), model_engine.py "
             "@1a0dc5f7, qk_norm_attention.py @034c3f0a";
  }
}

}  // namespace

EngineView trtllm_view(const Model& model, EngineVersion version, std::int64_t target_tokens) {
  EngineView view = empty_view(model, version);
  view.follows = trt_follows(version);
  view.length = trt_length(model, version, target_tokens);
  view.refusal = trt_refusal(model, version);
  if (view.refusal) view.notes.push_back(Note("cannot load this config: {}", *view.refusal));
  for (std::size_t i = 0; i < model.setups.size(); ++i) {
    std::vector<Note> notes;
    const RopeSetup read = trt_read_setup(model, model.setups[i], version, notes);
    const int index = static_cast<int>(i);
    EngineSetupView setup =
        trt_fused_qk_norm_rope(model, read) ? trt_fused_view(read, index) : trt_method_view(model, read, index);
    setup.notes.insert(setup.notes.begin(), notes.begin(), notes.end());
    view.setups.push_back(std::move(setup));
  }
  return view;
}

}  // namespace ropelens::engine_detail
