// The per-pair table as text. Piped (no width), every column; on a terminal (TextOptions::width), the columns
// that fit, chosen by priority, with two-row headers, and a note naming the rest.
#include <algorithm>
#include <functional>
#include <sstream>

#include <fmt/format.h>

#include "render/writers/format.hpp"
#include "ropelens/render/render.hpp"
#include "render/table/table_summary.hpp"
#include "render/writers/terminal_text.hpp"

namespace ropelens {
namespace {

using namespace render_detail;

struct Column {
  std::string header;  // what the column is, e.g. "turns@train 8192"
  int priority = 0;    // lower fits first on a narrow terminal
  bool left = false;   // left-aligned text
  std::vector<std::string> cells;

  // On a terminal a header with a space may take two rows ("turns@train" over "8192").
  std::pair<std::string, std::string> header_rows(bool split) const {
    const auto space = header.rfind(' ');
    if (!split || space == std::string::npos) return {header, ""};
    return {header.substr(0, space), header.substr(space + 1)};
  }
  int width(bool split) const {
    auto [top, bottom] = header_rows(split);
    int w = std::max(display_width(top), display_width(bottom));
    for (const auto& cell : cells) w = std::max(w, display_width(cell));
    return w;
  }
};

template <class F> Column column(std::string header, int priority, const SetupTable& st, F&& cell, bool left = false) {
  Column c{std::move(header), priority, left, {}};
  for (const auto& row : st.rows) c.cells.push_back(cell(row));
  return c;
}

std::vector<Column> columns_of(const TableReport& report, const SetupTable& st, bool terminal) {
  const RopeSetup& setup = report.model->setups[static_cast<std::size_t>(st.setup)];
  const std::int64_t declared = setup.max_position_embeddings.value;
  const bool audited = st.audit.has_value();
  std::vector<Column> columns;
  columns.push_back(column("pair", 0, st, [](const PairRow& r) { return fmt::format("{}", r.pair); }));
  columns.push_back(column("base θ", 10, st, [](const PairRow& r) { return fixed(r.base_inv_freq, 6); }));
  columns.push_back(column("effective θ", 7, st, [](const PairRow& r) { return fixed(r.inv_freq, 6); }));
  columns.push_back(column("scale", 9, st, [](const PairRow& r) { return optional_number(r.scale, 4); }));
  columns.push_back(
      column("wavelength", 1, st, [](const PairRow& r) { return optional_number(r.wavelength_tokens, 4); }));
  columns.push_back(column(fmt::format("turns@train {}", st.original_tokens), 6, st,
                           [](const PairRow& r) { return fixed(r.turns_original, 3); }));
  if (declared != st.original_tokens)
    columns.push_back(column(fmt::format("turns@declared {}", declared), 11, st,
                             [](const PairRow& r) { return fixed(r.turns_declared, 3); }));
  if (report.target_tokens)
    columns.push_back(column(fmt::format("turns@target {}", *report.target_tokens), 5, st,
                             [](const PairRow& r) { return r.turns_target ? fixed(*r.turns_target, 3) : "—"; }));
  columns.push_back(column(
      "band", 4, st, [](const PairRow& r) { return std::string(to_string(r.band)); }, true));
  if (!audited) return columns;
  const auto audit_cell = [&](auto&& value) {
    return [value](const PairRow& r) { return r.audit ? value(*r.audit) : std::string("—"); };
  };
  columns.push_back(column("seen°", 2, st, audit_cell([](const PairAudit& a) { return fixed(a.seen_deg, 4); })));
  columns.push_back(column("needed°", 3, st, audit_cell([](const PairAudit& a) { return fixed(a.needed_deg, 4); })));
  columns.push_back(column("unseen°", 8, st, audit_cell([](const PairAudit& a) {
                             return a.out_of_range ? fixed(a.unseen_arc_deg, 4) : "-";
                           })));
  columns.push_back(column("", 3, st, audit_cell([terminal](const PairAudit& a) {
                             return a.out_of_range ? std::string(terminal ? "!" : "! out of range") : "";
                           }),
                           true));
  return columns;
}

// The columns shown, in table order: all of them piped, on a terminal those that fit by priority.
std::vector<const Column*> shown_columns(const std::vector<Column>& columns, std::optional<int> width) {
  std::vector<const Column*> order;
  for (const auto& c : columns) order.push_back(&c);
  if (!width) return order;
  std::stable_sort(order.begin(), order.end(),
                   [](const Column* a, const Column* b) { return a->priority < b->priority; });
  std::vector<const Column*> kept;
  int used = 0;
  for (const Column* c : order) {
    const int needed = (kept.empty() ? 0 : 1) + c->width(true);
    if (!kept.empty() && used + needed > *width) continue;
    kept.push_back(c);
    used += needed;
  }
  std::sort(kept.begin(), kept.end());  // back to table order (the columns live in one vector)
  return kept;
}

std::string aligned(const std::string& text, int width, bool left) {
  const std::string pad(static_cast<std::size_t>(std::max(0, width - display_width(text))), ' ');
  return left ? text + pad : pad + text;
}

std::string joined_row(const std::vector<const Column*>& shown, const std::vector<int>& widths, const std::string& gap,
                       const std::function<std::string(const Column&)>& text) {
  std::string line;
  for (std::size_t i = 0; i < shown.size(); ++i)
    line += (i ? gap : "") + aligned(text(*shown[i]), widths[i], shown[i]->left);
  line.erase(line.find_last_not_of(' ') + 1);
  return line;
}

// Prose: as is when piped, word-wrapped on a terminal.
void prose(const std::string& text, const TextOptions& options, std::ostream& out, bool heading = false) {
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    std::string shown = options.width ? wrapped(line, *options.width, 2) : line;
    out << (heading ? styled(shown, heading_style(), options.color) : shown) << "\n";
  }
}

void render_rows(const TableReport& report, const SetupTable& st, const TextOptions& options, std::ostream& out) {
  const bool terminal = options.width.has_value();
  const std::vector<Column> columns = columns_of(report, st, terminal);
  const std::vector<const Column*> shown = shown_columns(columns, options.width);
  std::vector<int> widths;
  for (const Column* c : shown) widths.push_back(c->width(terminal));
  const std::string gap = terminal ? " " : "  ";
  const auto header = [&](bool bottom) {
    return joined_row(shown, widths, gap, [&](const Column& c) {
      auto rows = c.header_rows(terminal);
      return bottom ? rows.second : rows.first;
    });
  };
  out << styled(header(false), heading_style(), options.color) << "\n";
  if (terminal && !header(true).empty()) out << styled(header(true), heading_style(), options.color) << "\n";
  for (std::size_t r = 0; r < st.rows.size(); ++r) {
    std::string line = joined_row(shown, widths, gap, [&](const Column& c) { return c.cells[r]; });
    const bool out_of_range = st.rows[r].audit && st.rows[r].audit->out_of_range;
    out << (out_of_range ? styled(line, out_of_range_style(), options.color) : line) << "\n";
  }
  if (shown.size() == columns.size()) return;
  std::vector<std::string> hidden;
  for (const auto& c : columns)
    if (std::find(shown.begin(), shown.end(), &c) == shown.end() && !c.header.empty()) hidden.push_back(c.header);
  prose(fmt::format("(not shown to fit {} columns: {}; --wide prints every column{})", *options.width,
                    fmt::join(hidden, ", "), st.audit ? "; ! marks pairs out of range" : ""),
        options, out);
}

}  // namespace

void render_table_text(const TableReport& report, std::ostream& out, const TextOptions& options) {
  const Model& model = *report.model;
  prose(fmt::format("{} ({}; {})", terminal_safe(model.source), terminal_safe(model.model_type.value), kSemantics),
        options, out, true);
  if (report.seq_len) prose(fmt::format("evaluated at a sequence of {} tokens", *report.seq_len), options, out);
  if (model.setups.empty())
    prose(fmt::format("no rotary layers: positional scheme {}", to_string(model.scheme)), options, out);
  std::ostringstream schemes;
  render_scheme_text(report.schemes, schemes);
  prose(schemes.str(), options, out);
  for (const auto& st : report.setups) {
    out << "\n";
    prose(setup_heading(model, st), options, out, true);
    prose(band_summary(st), options, out);
    prose(attention_summary(st), options, out);
    if (st.audit) prose(audit_summary(st, *report.target_tokens), options, out);
    out << "\n";
    render_rows(report, st, options, out);
  }
  if (report.kv_cache) render_kv_cache_text(*report.kv_cache, out, options);
}

}  // namespace ropelens
