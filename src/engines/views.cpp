// Dispatch to each engine's view (its registry row), and merging versions that agree.
#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include <fmt/format.h>

#include "ropelens/engines/registry.hpp"
#include "views.hpp"

namespace ropelens {

std::string_view to_string(LimitAction action) {
  switch (action) {
    case LimitAction::none: return "nothing";
    case LimitAction::warning: return "warning";
    case LimitAction::error: return "error";
  }
  return "nothing";
}

std::string_view to_string(FactorSwitch when) {
  switch (when) {
    case FactorSwitch::none: return "none";
    case FactorSwitch::per_sequence: return "per sequence";
    case FactorSwitch::per_batch: return "per forward batch";
    case FactorSwitch::per_deployment: return "per deployment (max_model_len)";
    case FactorSwitch::per_context: return "per context (n_ctx)";
  }
  return "none";
}

bool from_gguf_file(const Model& model) { return engine_detail::read_from_gguf(model); }

namespace {

EngineView build_engine_view(const Model& model, EngineVersion version, std::int64_t target_tokens) {
  return engine_row(engine_of(version)).view(model, version, target_tokens);
}

}  // namespace

EngineView engine_view(const Model& model, EngineVersion version, std::int64_t target_tokens) {
  EngineView view = build_engine_view(model, version, target_tokens);
  for (auto& setup : view.setups) setup.pairing = model.pairing.value;
  if (view.no_class) view.notes.push_back(Note("cannot load this config: {}; not compared", *view.no_class));
  return view;
}

namespace {

bool same_numbers(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (relative_difference(a[i], b[i]) > 1e-12) return false;
  return true;
}

bool same_setup(const EngineSetupView& a, const EngineSetupView& b) {
  return same_numbers(a.inv_freq, b.inv_freq) && relative_difference(a.rope_magnitude, b.rope_magnitude) <= 1e-12 &&
         relative_difference(a.softmax_multiplier, b.softmax_multiplier) <= 1e-12 &&
         a.factor_switch == b.factor_switch && a.long_factors == b.long_factors &&
         a.recomputed_per_sequence == b.recomputed_per_sequence;
}

bool same_behaviour(const EngineView& a, const EngineView& b) {
  if (a.length.limit_tokens != b.length.limit_tokens || a.length.default_tokens != b.length.default_tokens ||
      a.length.beyond != b.length.beyond || a.setups.size() != b.setups.size() || a.refusal != b.refusal ||
      a.no_class != b.no_class)
    return false;
  for (std::size_t i = 0; i < a.setups.size(); ++i)
    if (!same_setup(a.setups[i], b.setups[i])) return false;
  return true;
}

}  // namespace

std::vector<EngineView> engine_views(const Model& model, const std::vector<EngineVersion>& versions,
                                     std::int64_t target_tokens) {
  std::vector<EngineView> views;
  for (Engine engine : all_engines()) {
    const std::size_t first_of_engine = views.size();
    for (EngineVersion version : versions_of(engine)) {
      if (std::find(versions.begin(), versions.end(), version) == versions.end()) continue;
      EngineView view = engine_view(model, version, target_tokens);
      auto kept = std::find_if(views.begin() + static_cast<std::ptrdiff_t>(first_of_engine), views.end(),
                               [&](const EngineView& v) { return same_behaviour(v, view); });
      if (kept != views.end()) kept->same_as.push_back(view.label);
      else views.push_back(std::move(view));
    }
  }
  return views;
}

std::vector<EngineView> engine_views(const Model& model, const std::vector<Engine>& engines,
                                     std::int64_t target_tokens) {
  std::vector<EngineVersion> versions;
  for (Engine engine : engines) versions.insert(versions.end(), versions_of(engine).begin(), versions_of(engine).end());
  return engine_views(model, versions, target_tokens);
}

namespace engine_detail {

EngineSetupView from_table(int setup, const RopeTable& table) {
  EngineSetupView view;
  view.setup = setup;
  view.inv_freq = table.inv_freq;
  view.rope_magnitude = table.attention_factor;
  view.factor = table.factor;
  view.correction_low = table.correction_low;
  view.correction_high = table.correction_high;
  view.long_factors = table.long_factors;
  return view;
}

EngineView empty_view(const Model& model, EngineVersion version) {
  EngineView view;
  view.version = version;
  view.label = std::string(label_of(version));
  if (read_from_gguf(model))
    view.notes.push_back(
        Note("the model was read from a GGUF file; shown as this engine computes the equivalent config"));
  return view;
}

bool read_from_gguf(const Model& model) { return model.model_type.from.pointer.rfind("gguf:", 0) == 0; }

bool is_mla(const Model& model) { return model.uses_mla(); }

int mla_key_dim(const Model& model, const RopeSetup& setup) {
  return (model.qk_nope_head_dim ? model.qk_nope_head_dim->value : 0) + setup.head_dim.value;
}

bool is_deepseek_family(const Model& model) {
  const auto& type = model.model_type.value;
  return type == "deepseek_v2" || type == "deepseek_v3" || type == "deepseek_v32" || type == "deepseek2" ||
         type == "kimi_k2";
}

bool is_deepseek_yarn(const RopeSetup& setup) { return setup.rope_type_name.value == "deepseek_yarn"; }

double stated_factor(const RopeSetup& setup) { return setup.factor ? setup.factor->value : 1.0; }

std::int64_t original_or_declared(const RopeSetup& setup) {
  return setup.original_max_position_embeddings ? setup.original_max_position_embeddings->value
                                                : setup.max_position_embeddings.value;
}

bool original_given_in_config(const RopeSetup& setup) {
  return setup.original_max_position_embeddings &&
         setup.original_max_position_embeddings->from.origin != Origin::derived;
}

bool mscale_pair_truthy(const YarnParams& yarn) {
  return yarn.mscale && yarn.mscale->value != 0.0 && yarn.mscale_all_dim && yarn.mscale_all_dim->value != 0.0;
}

double mla_softmax(const Model& model, const RopeSetup& setup) {
  if (!is_mla(model) || setup.type == RopeType::default_rope) return 1.0;
  if (!setup.yarn.mscale_all_dim || setup.yarn.mscale_all_dim->value == 0.0) return 1.0;
  const double mscale = yarn_mscale(stated_factor(setup), setup.yarn.mscale_all_dim->value);
  return mscale * mscale;
}

double deepseek_yarn_magnitude(const RopeSetup& setup) {
  const double factor = stated_factor(setup);
  const double mscale = setup.yarn.mscale ? setup.yarn.mscale->value : 1.0;
  const double all_dim = setup.yarn.mscale_all_dim ? setup.yarn.mscale_all_dim->value : 0.0;
  return yarn_mscale(factor, mscale) / yarn_mscale(factor, all_dim);
}

EngineSetupView deepseek_yarn_view(const Model& model, const RopeSetup& setup, int index, Note note) {
  RopeSetup deepseek = setup;
  deepseek.yarn.truncate = {true, Provenance::by_default("DeepseekScalingRotaryEmbedding always truncates")};
  EngineSetupView view = from_table(index, compute_rope_table(deepseek));
  view.method = RopeType::yarn;
  view.rope_magnitude = deepseek_yarn_magnitude(setup);
  view.softmax_multiplier = mla_softmax(model, setup);
  view.notes.push_back(std::move(note));
  return view;
}

RopeSetup layer_dict_reading(const RopeSetup& setup, std::vector<Note>& notes) {
  RopeSetup served = setup;
  if (setup.type == RopeType::yarn && setup.layer_truncate &&
      setup.layer_truncate->value != setup.yarn.truncate.value) {
    served.yarn.truncate = *setup.layer_truncate;
    notes.push_back(Note("{} layers: truncate {} read from {} (the layer's own dict, which transformers ignores)",
                         setup.name, setup.layer_truncate->value ? "true" : "false",
                         setup.layer_truncate->from.pointer));
  }
  return served;
}

bool states_no_length(const Model& model) {
  return model.length_keys.empty() && model.max_position_embeddings.value <= 0;
}

LengthLimit assumed_length_limit() {
  LengthLimit limit;
  limit.default_tokens = kEngineDefaultLength;
  limit.derivation = fmt::format("no length key in the config: the engine assumes {} tokens", kEngineDefaultLength);
  return limit;
}

std::optional<std::string> mimo_v2_refusal(const Model& model) {
  const std::string& type = model.model_type.value;
  if ((type != "mimo_v2_flash" && type != "mimo_v2") || model.states_key("hybrid_layer_pattern")) return std::nullopt;
  return std::string(
      "AttributeError: the config has no hybrid_layer_pattern, which mimo_v2.py reads without a default (a config "
      "in transformers' native layer_types layout)");
}

bool model_type_needs_registering(const Model& model) {
  return !model.transformers_native && !model.read_as.empty() && model.read_as != model.model_type.value &&
         !model.states_key("auto_map");
}

RopeSetup deepseek_v4_served(const Model& model, const RopeSetup& setup) {
  if (model.read_as != "deepseek_v4") return setup;
  const RopeSetup* scaled = nullptr;
  for (const auto& candidate : model.setups)
    if (candidate.type == RopeType::yarn) scaled = &candidate;
  if (!scaled) return setup;
  RopeSetup served = *scaled;
  served.name = setup.name;
  served.layers = setup.layers;
  served.attention = setup.attention;
  served.window_tokens = setup.window_tokens;
  served.rope_theta = setup.rope_theta;
  served.rope_type_name.value = "deepseek_yarn";
  const Provenance zero = Provenance::by_default("deepseek_v4.py: magnitude 1 (mscale and mscale_all_dim 0)");
  served.yarn.mscale = Field<double>{0.0, zero};
  served.yarn.mscale_all_dim = Field<double>{0.0, zero};
  served.yarn.attention_factor.reset();
  return served;
}

const RopeSetup* deciding_setup(const Model& model) {
  for (const auto& setup : model.setups)
    if (!setup.window_tokens) return &setup;
  return model.setups.empty() ? nullptr : &model.setups.front();
}

std::string fmt_number(double value) { return fmt::format("{:.6g}", value); }

std::int64_t whole_tokens(double tokens) {
  constexpr double kTwoTo63 = 9223372036854775808.0;
  if (!(tokens < kTwoTo63)) return std::numeric_limits<std::int64_t>::max();  // also NaN
  if (tokens <= -kTwoTo63) return std::numeric_limits<std::int64_t>::min();
  return static_cast<std::int64_t>(tokens);
}

}  // namespace engine_detail
}  // namespace ropelens
