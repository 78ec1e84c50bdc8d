#include <fmt/format.h>

#include "render/writers/format.hpp"
#include "ropelens/render/render.hpp"
#include "render/table/table_summary.hpp"

namespace ropelens {

void render_table_markdown(const TableReport& report, std::ostream& out) {
  using namespace render_detail;
  const Model& model = *report.model;
  out << fmt::format("# `{}` ({})\n\nSemantics: {}.\n", model.source, model.model_type.value, kSemantics);
  for (const auto& st : report.setups) {
    std::string heading = setup_heading(model, st);
    auto newline = heading.find('\n');
    out << fmt::format("\n## {}\n\n{}.\n\n{}; {}.\n", heading.substr(0, newline), heading.substr(newline + 1),
                       band_summary(st), attention_summary(st));
    if (st.audit) out << "\n" << audit_summary(st, *report.target_tokens) << ".\n";
    out << "\n| pair | base θ | effective θ | scale | wavelength | turns (original) | turns (declared) |";
    if (report.target_tokens) out << " turns (target) |";
    out << " band |";
    if (st.audit) out << " seen° | needed° | unseen° |";
    out << "\n|---:|---:|---:|---:|---:|---:|---:|";
    if (report.target_tokens) out << "---:|";
    out << "---|";
    if (st.audit) out << "---:|---:|---:|";
    out << "\n";
    for (const auto& row : st.rows) {
      out << fmt::format("| {} | {} | {} | {} | {} | {} | {} |", row.pair, fixed(row.base_inv_freq, 6),
                         fixed(row.inv_freq, 6), optional_number(row.scale, 4),
                         optional_number(row.wavelength_tokens, 4), fixed(row.turns_original, 3),
                         fixed(row.turns_declared, 3));
      if (row.turns_target) out << fmt::format(" {} |", fixed(*row.turns_target, 3));
      out << fmt::format(" {} |", to_string(row.band));
      if (row.audit)
        out << fmt::format(" {} | {} | {} |", fixed(row.audit->seen_deg, 4), fixed(row.audit->needed_deg, 4),
                           row.audit->out_of_range ? "**" + fixed(row.audit->unseen_arc_deg, 4) + "**" : "-");
      out << "\n";
    }
  }
}

}  // namespace ropelens
