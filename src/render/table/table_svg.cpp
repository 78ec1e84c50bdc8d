// `table --format svg`: the wavelength chart of every RoPE setup, stacked in one SVG document.
#include <fmt/format.h>

#include "ropelens/render/render.hpp"
#include "render/table/rope_charts.hpp"

namespace ropelens {

void render_table_svg(const TableReport& report, std::ostream& out) {
  using namespace render_detail;
  const Model& model = *report.model;
  std::vector<SvgChart> charts;
  for (const auto& st : report.setups) charts.push_back(wavelength_chart(report, st));
  out << svg_document(
      charts, fmt::format("{} ({}): RoPE wavelength per pair", model.source, model.model_type.value),
      fmt::format("{}: no rotary layers (positional scheme {})", model.source, to_string(model.scheme)));
}

}  // namespace ropelens
