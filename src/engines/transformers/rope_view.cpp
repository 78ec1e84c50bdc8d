// transformers: v5 is compute_rope_table itself (src/rope/*.cpp, modeling_rope_utils.py v5). Older versions
// differ only for YaRN: 4.48–4.5x replaced the factor with max/original whenever original was given
// (#38224, fixed by #40320); 4.4x (@ef468064) computed the correction range on max_position_embeddings and
// ignored mscale/mscale_all_dim (attention factor 0.1·ln(factor)+1).
#include <optional>

#include <fmt/format.h>

#include "transformers.hpp"

namespace ropelens::engine_detail {
namespace {

// Each returns the setup as that version reads it, or nothing when it reads it as v5 does.
std::optional<RopeSetup> as_transformers_4_5x(const RopeSetup& setup) {
  if (setup.type != RopeType::yarn || !original_given_in_config(setup)) return std::nullopt;
  RopeSetup older = setup;
  const double declared = static_cast<double>(setup.max_position_embeddings.value);
  const double original = static_cast<double>(setup.original_max_position_embeddings->value);
  older.factor = Field<double>{declared / original,
                               Provenance::derived(fmt::format("transformers 4.5x: max_position_embeddings {} / "
                                                               "original_max_position_embeddings {} (#38224)",
                                                               setup.max_position_embeddings.value,
                                                               setup.original_max_position_embeddings->value))};
  return older;
}

std::optional<RopeSetup> as_transformers_4_4x(const RopeSetup& setup) {
  if (setup.type != RopeType::yarn) return std::nullopt;
  RopeSetup older = setup;
  older.original_max_position_embeddings = setup.max_position_embeddings;
  // _compute_yarn_parameters reads attention_factor or 0.1·ln(factor)+1; mscale and mscale_all_dim are never read.
  older.yarn.mscale.reset();
  older.yarn.mscale_all_dim.reset();
  return older;
}

std::optional<RopeSetup> as_version(const RopeSetup& setup, EngineVersion version) {
  if (version == EngineVersion::transformers_4_5x) return as_transformers_4_5x(setup);
  if (version == EngineVersion::transformers_4_4x) return as_transformers_4_4x(setup);
  return std::nullopt;
}

EngineSetupView transformers_setup_view(const Model& model, const RopeSetup& setup, int index,
                                        std::int64_t target_tokens) {
  const RopeTable table = compute_rope_table(setup, target_tokens);
  EngineSetupView view = from_table(index, table);
  view.method = setup.type;
  view.softmax_multiplier = mla_softmax(model, setup);
  if (setup.type == RopeType::dynamic) {
    view.recomputed_per_sequence = true;
    view.effective_theta = table.effective_theta;
    view.notes.push_back(
        Note("dynamic NTK recomputed per forward for sequences longer than {}: base {:.6g} at {} "
             "tokens; cached keys keep the rotation they were stored with (#25104)",
             setup.max_position_embeddings.value, table.effective_theta, target_tokens));
  }
  if (setup.type == RopeType::longrope) {
    view.factor_switch = FactorSwitch::per_sequence;
    view.notes.push_back(
        Note("LongRoPE switches per forward call (_longrope_frequency_update): long factors once its longest "
             "position exceeds {} tokens; keys cached before keep the short-factor rotation; {} at {} tokens",
             original_or_declared(setup), table.long_factors ? "long" : "short", target_tokens));
  }
  return view;
}

std::string transformers_follows(EngineVersion version) {
  switch (version) {
    case EngineVersion::transformers_4_5x:
      return "modeling_rope_utils.py 4.48–4.5x: _compute_yarn_parameters sets factor = max/original when original "
             "is present (#38224, fixed by #40320)";
    case EngineVersion::transformers_4_4x:
      return "modeling_rope_utils.py @ef468064 (≈4.44–4.45): YaRN correction range on max_position_embeddings, "
             "attention factor 0.1·ln(factor)+1 (mscale and mscale_all_dim are not read)";
    default: return "modeling_rope_utils.py v5 (ROPE_INIT_FUNCTIONS, float64 here; transformers runs float32)";
  }
}

}  // namespace

EngineView transformers_view(const Model& model, EngineVersion version, std::int64_t target_tokens) {
  EngineView view = empty_view(model, version);
  view.follows = transformers_follows(version);
  view.length.derivation = fmt::format(
      "no limit: max_position_embeddings {} bounds nothing (RoPE is computed for "
      "each forward)",
      model.max_position_embeddings.value);
  for (std::size_t i = 0; i < model.setups.size(); ++i) {
    const std::optional<RopeSetup> older = as_version(model.setups[i], version);
    view.setups.push_back(
        transformers_setup_view(model, older ? *older : model.setups[i], static_cast<int>(i), target_tokens));
  }
  if (is_mla(model))
    view.notes.push_back(
        Note("MLA: the YaRN temperature lives in the softmax scale (mscale_all_dim), not in cos/sin "
             "(modeling_deepseek_v3, PR #47435)"));
  view.no_class = missing_class(model, version);
  return view;
}

}  // namespace ropelens::engine_detail
