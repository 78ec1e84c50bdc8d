#include "render/table/rope_charts.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "render/writers/format.hpp"

namespace ropelens::render_detail {
namespace {

constexpr double kFullTurnDeg = 360.0;

const RopeSetup& setup_of(const TableReport& report, const SetupTable& st) {
  return report.model->setups[static_cast<std::size_t>(st.setup)];
}

std::string setup_title(const TableReport& report, const SetupTable& st) {
  const RopeSetup& s = setup_of(report, st);
  return fmt::format("setup {} ({}, {} layer{})", s.name, to_string(s.type), s.layers.size(),
                     s.layers.size() == 1 ? "" : "s");
}

Mark band_mark(Band band) {
  switch (band) {
    case Band::kept: return Mark::ring(palette::bluish_green);
    case Band::interpolated: return Mark::ring(palette::orange);
    case Band::scaled: return Mark::ring(palette::reddish_purple);
    case Band::zero: break;
  }
  return Mark::ring(palette::grey);
}

const Mark kBaseMark = Mark::dot(palette::blue);
const Mark kOutOfRangeMark = Mark::area(palette::vermillion, 0.14);
const Mark kUnseenArcMark = Mark::area(palette::vermillion, 0.7);
const Mark kSeenMark = Mark::dot(palette::blue);
const Mark kNeededMark = Mark::ring(palette::black);
const Mark kFullTurnMark = Mark::line(palette::grey, "2 3");

// A horizontal reference line; lines at the same length share one label ("extended = declared 131072").
struct LengthLine {
  double tokens = 0.0;
  std::string names;
  Mark mark;
};

std::vector<LengthLine> length_lines(const TableReport& report, const SetupTable& st) {
  const RopeSetup& s = setup_of(report, st);
  std::vector<LengthLine> lines;
  const auto add = [&](std::int64_t tokens, std::string_view name, Mark mark) {
    if (tokens <= 0) return;
    for (auto& line : lines)
      if (line.tokens == static_cast<double>(tokens)) {
        line.names += fmt::format(" = {}", name);
        return;
      }
    lines.push_back({static_cast<double>(tokens), std::string(name), mark});
  };
  if (report.target_tokens) add(*report.target_tokens, "target", Mark::line(palette::black));
  const std::int64_t trained = st.audit ? st.audit->pretrain_tokens : st.original_tokens;
  add(trained, "trained", Mark::line(palette::vermillion, "6 4"));
  if (st.audit) add(st.audit->extension_tokens, "extended", Mark::line(palette::vermillion, "2 3"));
  add(s.max_position_embeddings.value, "declared", Mark::line(palette::grey, "8 3 2 3"));
  if (s.window_tokens) add(s.window_tokens->value, "window", Mark::line(palette::sky_blue, "4 2"));
  return lines;
}

std::string line_label(const LengthLine& line) { return fmt::format("{} {:.0f}", line.names, line.tokens); }

Axis pair_axis(const SetupTable& st) {
  const double last = st.rows.empty() ? 1.0 : static_cast<double>(st.rows.back().pair);
  const double first = st.rows.empty() ? 0.0 : static_cast<double>(st.rows.front().pair);
  return {first - 1.0, last + 1.0, false, "pair i"};
}

void shade_out_of_range(SvgChart& chart, const SetupTable& st) {
  for (const auto& row : st.rows)
    if (row.audit && row.audit->out_of_range)
      chart.shade_columns(row.pair - 0.5, row.pair + 0.5, kOutOfRangeMark, "oor",
                          fmt::format("pair {} out of range: {}° seen, {}° needed", row.pair,
                                      fixed(row.audit->seen_deg, 4), fixed(row.audit->needed_deg, 4)));
}

bool any_out_of_range(const SetupTable& st) { return st.audit && !st.audit->out_of_range_pairs.empty(); }

}  // namespace

SvgChart wavelength_chart(const TableReport& report, const SetupTable& st) {
  const auto lines = length_lines(report, st);
  double low = 1e300;
  double high = 0.0;
  const auto extend = [&](std::optional<double> v) {
    if (v && *v > 0.0) low = std::min(low, *v), high = std::max(high, *v);
  };
  for (const auto& row : st.rows) extend(row.base_wavelength_tokens), extend(row.wavelength_tokens);
  for (const auto& line : lines) extend(line.tokens);
  if (high == 0.0) low = 1.0, high = 10.0;

  SvgChart chart(fmt::format("Wavelength per pair: {}", setup_title(report, st)), pair_axis(st),
                 {low, high, true, "wavelength (tokens per turn)"});
  shade_out_of_range(chart, st);
  for (const auto& line : lines) chart.hline(line.tokens, line.mark, line_label(line), "length");
  std::vector<bool> band_seen(4, false);
  for (const auto& row : st.rows) {
    if (row.base_wavelength_tokens)
      chart.point(row.pair, *row.base_wavelength_tokens, *row.base_wavelength_tokens, kBaseMark, "base",
                  fmt::format("pair {}: base wavelength {} tokens", row.pair, fixed(*row.base_wavelength_tokens, 4)));
    if (!row.wavelength_tokens) continue;
    band_seen[static_cast<std::size_t>(row.band)] = true;
    chart.point(row.pair, *row.wavelength_tokens, *row.wavelength_tokens, band_mark(row.band),
                fmt::format("effective band-{}", to_string(row.band)),
                fmt::format("pair {}: effective wavelength {} tokens ({}, scale {})", row.pair,
                            fixed(*row.wavelength_tokens, 4), to_string(row.band), optional_number(row.scale, 4)));
  }
  std::vector<LegendEntry> legend{{kBaseMark, "base 2π/θᵢ"}};
  for (Band band : {Band::kept, Band::interpolated, Band::scaled})
    if (band_seen[static_cast<std::size_t>(band)])
      legend.push_back({band_mark(band), fmt::format("effective, {}", to_string(band))});
  for (const auto& line : lines) legend.push_back({line.mark, line_label(line)});
  if (any_out_of_range(st)) legend.push_back({kOutOfRangeMark, "out of range at the target"});
  chart.legend(std::move(legend));
  return chart;
}

SvgChart angle_chart(const TableReport& report, const SetupTable& st) {
  double low = kFullTurnDeg;
  double high = kFullTurnDeg;
  for (const auto& row : st.rows) {
    if (!row.audit) continue;
    for (double v : {row.audit->seen_deg, row.audit->needed_deg})
      if (v > 0.0) low = std::min(low, v), high = std::max(high, v);
  }
  SvgChart chart(fmt::format("Angle seen in training vs needed at {} tokens: {}", report.target_tokens.value_or(0),
                             setup_title(report, st)),
                 pair_axis(st), {low, high, true, "angle (degrees)"});
  shade_out_of_range(chart, st);
  for (const auto& row : st.rows)
    if (row.audit && row.audit->out_of_range)
      chart.bar(row.pair, 0.4, row.audit->seen_deg, row.audit->seen_deg + row.audit->unseen_arc_deg, kUnseenArcMark,
                "unseen",
                fmt::format("pair {}: {}° never seen in training", row.pair, fixed(row.audit->unseen_arc_deg, 4)));
  chart.hline(kFullTurnDeg, kFullTurnMark, "one turn (360°)", "turn");
  for (const auto& row : st.rows) {
    if (!row.audit) continue;
    const PairAudit& a = *row.audit;
    if (a.seen_deg > 0.0)
      chart.point(row.pair, a.seen_deg, a.seen_deg, kSeenMark, "seen",
                  fmt::format("pair {}: {}° seen in training", row.pair, fixed(a.seen_deg, 4)));
    if (a.needed_deg > 0.0)
      chart.point(row.pair, a.needed_deg, a.needed_deg, kNeededMark, "needed",
                  fmt::format("pair {}: {}° needed at the target", row.pair, fixed(a.needed_deg, 4)));
  }
  std::vector<LegendEntry> legend{
      {kSeenMark, "seen in training"}, {kNeededMark, "needed at the target"}, {kFullTurnMark, "one turn"}};
  if (any_out_of_range(st)) legend.push_back({kUnseenArcMark, "unseen arc"});
  chart.legend(std::move(legend));
  return chart;
}

}  // namespace ropelens::render_detail
