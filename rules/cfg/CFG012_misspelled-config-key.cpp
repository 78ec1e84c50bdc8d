#include <fmt/format.h>

#include "../support.hpp"

namespace ropelens::rules {
namespace cfg012 {

template <class T> static bool defaulted(const Field<T>& field) { return field.from.origin == Origin::defaulted; }

static std::string fell_back(std::string_view key, const std::string& value, const Provenance& from) {
  return fmt::format("{} fell back to {} ({})", key, value, from.note);
}

template <class Pred> static const RopeSetup* first_setup(const Model& model, Pred pred) {
  auto it = std::find_if(model.setups.begin(), model.setups.end(), pred);
  return it == model.setups.end() ? nullptr : &*it;
}

// What ropelens used instead of the value the config meant to set, for the keys whose fallback the model shows.
static std::optional<std::string> fallback(const Model& model, std::string_view meant) {
  if (meant == "rope_theta") {
    if (auto* s = first_setup(model, [](const RopeSetup& x) { return defaulted(x.rope_theta); }))
      return fell_back(meant, number(s->rope_theta.value), s->rope_theta.from);
  } else if (meant == "partial_rotary_factor") {
    if (auto* s = first_setup(model, [](const RopeSetup& x) { return defaulted(x.partial_rotary_factor); }))
      return fell_back(meant, number(s->partial_rotary_factor.value), s->partial_rotary_factor.from);
  } else if (meant == "max_position_embeddings") {
    if (defaulted(model.max_position_embeddings))
      return fell_back(meant, std::to_string(model.max_position_embeddings.value), model.max_position_embeddings.from);
  } else if (meant == "rope_scaling" || meant == "rope_parameters") {
    if (!model.setups.empty() &&
        !first_setup(model, [](const RopeSetup& x) { return x.type != RopeType::default_rope; }))
      return std::string("no RoPE scaling applies: every layer runs default RoPE");
  }
  return std::nullopt;
}

static std::string cost(const Model& model, const MisspelledConfigKey& typo) {
  if (typo.meant_also_set) return fmt::format("'{}' is set as well, so this key is unused", typo.meant);
  if (!typo.read_by_ropelens)
    return fmt::format("transformers keeps it as an extra attribute and '{}' takes its class default", typo.meant);
  return fallback(model, typo.meant).value_or(fmt::format("ropelens reads '{}', so this value is unused", typo.meant));
}

static void check(const Context& cx, Sink& out) {
  for_each_issue<MisspelledConfigKey>(cx.model, [&](const std::string& pointer, const MisspelledConfigKey& typo) {
    const std::string message =
        fmt::format("unknown key '{}'; did you mean '{}'? {}", typo.key, typo.meant, cost(cx.model, typo));
    const bool changes_figures = typo.read_by_ropelens && !typo.meant_also_set;
    out.report_as(changes_figures ? Severity::error : Severity::warning, pointer, message)
        .help(typo.meant_also_set ? fmt::format("remove '{}'", typo.key)
                                  : fmt::format("rename '{}' to '{}'", typo.key, typo.meant))
        .fact("key", typo.key)
        .fact("suggestion", typo.meant);
  });
}

}  // namespace cfg012

extern const Rule CFG012{{"CFG012", "misspelled-config-key", Severity::error,
                          "A top-level key is a near miss of a known attribute, which then takes its default"},
                         &cfg012::check};

}  // namespace ropelens::rules
