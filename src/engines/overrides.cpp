// --set edits that replace the RoPE method a model was trained with (ENG305).
#include "views.hpp"

namespace ropelens {
namespace {

const RopeSetup* same_layers(const Model& trained, const RopeSetup& edited) {
  for (const auto& setup : trained.setups)
    if (setup.name == edited.name && setup.attention == edited.attention) return &setup;
  return nullptr;
}

}  // namespace

std::vector<MethodOverride> find_method_overrides(const Model& trained, const Model& edited) {
  std::vector<MethodOverride> found;
  for (std::size_t i = 0; i < edited.setups.size(); ++i) {
    const RopeSetup& now = edited.setups[i];
    const RopeSetup* before = same_layers(trained, now);
    if (before == nullptr || before->type == RopeType::default_rope || before->type == now.type) continue;
    MethodOverride o;
    o.setup = static_cast<int>(i);
    o.pointer = now.pointer.empty() ? before->pointer : now.pointer;  // the dict the edit removed
    o.trained = before->type;
    o.applied = now.type;
    o.trained_factor = engine_detail::stated_factor(*before);
    o.applied_factor = engine_detail::stated_factor(now);
    found.push_back(o);
  }
  return found;
}

}  // namespace ropelens
