// --set edits that replace the RoPE method a model was trained with (ENG305).
#include "views.hpp"

namespace ropelens {
namespace {

const RopeSetup* same_layers(const Model& trained, const RopeSetup& edited) {
  for (const auto& setup : trained.setups)
    if (setup.name == edited.name && setup.attention == edited.attention) return &setup;
  return nullptr;
}

// The per-pair divisors a setup applies, with where they were read.
const Provenance* divisors_source(const RopeSetup& setup) {
  if (setup.frequency_divisors) return &setup.frequency_divisors->from;
  if (setup.type == RopeType::longrope) return &setup.longrope.short_factor.from;
  return nullptr;
}

// A method read from a tensor of per-pair divisors (a GGUF's rope_freqs) is kept by a setup that still divides by
// that tensor: a runtime flag changes what is applied on top of it, never the tensor.
bool keeps_trained_divisors(const RopeSetup& trained, const RopeSetup& edited) {
  const Provenance* divisors = divisors_source(edited);
  return divisors && divisors->origin == Origin::config && divisors->pointer == trained.rope_type_name.from.pointer;
}

}  // namespace

std::vector<MethodOverride> find_method_overrides(const Model& trained, const Model& edited) {
  std::vector<MethodOverride> found;
  for (std::size_t i = 0; i < edited.setups.size(); ++i) {
    const RopeSetup& now = edited.setups[i];
    const RopeSetup* before = same_layers(trained, now);
    if (before == nullptr || before->type == RopeType::default_rope || before->type == now.type ||
        keeps_trained_divisors(*before, now))
      continue;
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
