// --set edits that replace the RoPE method a model was trained with (ENG305).
#include <set>

#include <fmt/format.h>

#include "views.hpp"

namespace ropelens {
namespace {

const RopeSetup* same_layers(const Model& trained, const RopeSetup& edited) {
  for (const auto& setup : trained.setups)
    if (setup.name == edited.name && setup.attention == edited.attention) return &setup;
  return nullptr;
}

std::string describe(RopeType type, double factor) {
  if (type == RopeType::default_rope) return "'default'";
  return fmt::format("'{}' (factor {})", to_string(type), engine_detail::fmt_number(factor));
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

void record_method_overrides(Model& edited, const Model& trained) {
  std::set<std::string> reported;
  for (const auto& o : find_method_overrides(trained, edited)) {
    if (!reported.insert(o.pointer).second) continue;  // one dict shared by several attention kinds
    const RopeSetup& setup = edited.setups[static_cast<std::size_t>(o.setup)];
    std::string where = edited.setups.size() > 1 ? fmt::format("{} layers: ", setup.name) : "";
    edited.problems.push_back(
        {"ENG305", o.pointer,
         fmt::format("{}--set replaces the trained rope type {} with {}; the weights were trained with the first",
                     where, describe(o.trained, o.trained_factor), describe(o.applied, o.applied_factor)),
         false});
  }
}

}  // namespace ropelens
