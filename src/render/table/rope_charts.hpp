// Internal to renderers: the two per-setup charts of `report` and `table --format svg`, drawn from the rows
// `table` prints (TableReport), never recomputed.
#pragma once

#include <cstdint>
#include <optional>

#include "ropelens/report/table_report.hpp"
#include "render/writers/svg_writer.hpp"

namespace ropelens::render_detail {

// Base and effective wavelength per pair on a log axis, bands coloured, lines at the trained, extended,
// declared, window and target lengths, out-of-range pairs shaded.
SvgChart wavelength_chart(const TableReport& report, const SetupTable& setup);

// Per pair, the angle seen in training against the angle needed at the target (log axis), the unseen arc
// shaded. Needs an audited setup (setup.audit).
SvgChart angle_chart(const TableReport& report, const SetupTable& setup);

}  // namespace ropelens::render_detail
