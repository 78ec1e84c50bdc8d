#include <fmt/format.h>

#include "format.hpp"
#include "ropelens/render.hpp"
#include "table_summary.hpp"

namespace ropelens {
namespace {

using namespace render_detail;

void render_rows(const TableReport& report, const SetupTable& st, std::ostream& out) {
  const bool audited = st.audit.has_value();
  out << fmt::format("{:>5} {:>13} {:>13} {:>9} {:>12} {:>11} {:>11}", "pair", "base θ", "effective θ", "scale",
                     "wavelength", fmt::format("turns@{}", st.original_tokens),
                     fmt::format("turns@{}", report.model->setups[static_cast<std::size_t>(st.setup)]
                                                 .max_position_embeddings.value));
  if (report.target_tokens) out << fmt::format(" {:>11}", fmt::format("turns@{}", *report.target_tokens));
  out << (audited ? fmt::format("  {:<12}", "band") : "  band");
  if (audited) out << fmt::format(" {:>9} {:>9} {:>9}", "seen°", "needed°", "unseen°");
  out << "\n";
  for (const auto& row : st.rows) {
    out << fmt::format("{:>5} {:>13} {:>13} {:>9} {:>12} {:>11} {:>11}", row.pair, fixed(row.base_inv_freq, 6),
                       fixed(row.inv_freq, 6), optional_number(row.scale, 4),
                       optional_number(row.wavelength_tokens, 4), fixed(row.turns_original, 3),
                       fixed(row.turns_declared, 3));
    if (row.turns_target) out << fmt::format(" {:>11}", fixed(*row.turns_target, 3));
    out << (row.audit ? fmt::format("  {:<12}", to_string(row.band)) : fmt::format("  {}", to_string(row.band)));
    if (row.audit)
      out << fmt::format(" {:>9} {:>9} {:>9}{}", fixed(row.audit->seen_deg, 4), fixed(row.audit->needed_deg, 4),
                         row.audit->out_of_range ? fixed(row.audit->unseen_arc_deg, 4) : "-",
                         row.audit->out_of_range ? "  ! out of range" : "");
    out << "\n";
  }
}

}  // namespace

void render_table_text(const TableReport& report, std::ostream& out) {
  const Model& model = *report.model;
  out << fmt::format("{} ({}; {})\n", model.source, model.model_type.value, kSemantics);
  if (report.seq_len) out << fmt::format("evaluated at a sequence of {} tokens\n", *report.seq_len);
  if (model.setups.empty())
    out << fmt::format("no rotary layers: positional scheme {}\n", to_string(model.scheme));
  render_scheme_text(report.schemes, out);
  for (const auto& st : report.setups) {
    out << "\n" << setup_heading(model, st) << "\n";
    out << band_summary(st) << "\n";
    out << attention_summary(st) << "\n";
    if (st.audit) out << audit_summary(st, *report.target_tokens) << "\n";
    out << "\n";
    render_rows(report, st, out);
  }
}

}  // namespace ropelens
