#include <fmt/format.h>

#include "format.hpp"
#include "model_settings.hpp"
#include "ropelens/render.hpp"

namespace ropelens {
namespace {


void line(std::ostream& out, std::string_view indent, std::string_view name, const std::string& value,
          const Provenance& from) {
  out << fmt::format("{}{:<34} {:<22} {}\n", indent, name, value, from.describe());
}

void render_setup(const RopeSetup& s, std::ostream& out) {
  out << fmt::format("\nsetup {}: layers {} ({} layers), {} attention", s.name, index_ranges(s.layers), s.layers.size(),
                     to_string(s.attention));
  if (s.window_tokens) out << fmt::format(" within {} tokens", s.window_tokens->value);
  out << "\n";
  for (const auto& row : render_detail::setup_settings(s)) line(out, "  ", row.name, row.value, row.from);
}

}  // namespace

void render_inspect_text(const Model& model, const SchemeReport& schemes, std::ostream& out) {
  out << fmt::format("{}\n", model.source);
  for (const auto& row : render_detail::model_settings(model)) line(out, "", row.name, row.value, row.from);
  if (!model.layers.empty()) out << fmt::format("{:<34} {}\n", "schedule", model.schedule_summary());
  auto nope = model.nope_layers();
  if (!nope.empty()) out << fmt::format("{:<34} {}\n", "NoPE layers", index_ranges(nope));
  for (const auto& setup : model.setups) render_setup(setup, out);
  render_scheme_text(schemes, out);
  if (!model.notes.empty()) {
    out << "\nnotes\n";
    for (const auto& note : model.notes) out << "  - " << note << "\n";
  }
  out << fmt::format("\nproblems: {}\n", model.problems.size());
  for (const auto& p : model.problems)
    out << fmt::format("  {} {}: {}\n", p.code, p.pointer.empty() ? "(document)" : p.pointer, p.message);
}

}  // namespace ropelens
