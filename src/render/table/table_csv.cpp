#include <fmt/format.h>

#include "ropelens/render/render.hpp"

namespace ropelens {
namespace {

std::string csv_cell(const std::optional<double>& value) { return value ? fmt::format("{}", *value) : ""; }

}  // namespace

void render_table_csv(const TableReport& report, std::ostream& out) {
  const bool audited = report.target_tokens.has_value();
  out << "setup,pair,base_inv_freq,inv_freq,scale,wavelength_tokens,turns_original,turns_declared,turns_target,band";
  if (audited) out << ",seen_deg,needed_deg,unseen_deg,out_of_range";
  out << "\n";
  for (const auto& st : report.setups) {
    const auto& name = report.model->setups[static_cast<std::size_t>(st.setup)].name;
    for (const auto& row : st.rows) {
      out << fmt::format("{},{},{},{},{},{},{},{},{},{}", name, row.pair, row.base_inv_freq, row.inv_freq,
                         csv_cell(row.scale), csv_cell(row.wavelength_tokens), row.turns_original, row.turns_declared,
                         csv_cell(row.turns_target), to_string(row.band));
      if (row.audit)
        out << fmt::format(",{},{},{},{}", row.audit->seen_deg, row.audit->needed_deg, row.audit->unseen_arc_deg,
                           row.audit->out_of_range ? "true" : "false");
      out << "\n";
    }
  }
}

}  // namespace ropelens
