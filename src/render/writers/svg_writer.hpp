// Internal to renderers: the one small SVG writer every chart uses (axes, log ticks, labels, legend).
// Charts place data values; the writer maps them to pixels. Colours come from the Okabe–Ito palette, which
// reads for colour-blind readers and in print, and every series also differs by shape or dash.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace ropelens::render_detail {

namespace palette {  // Okabe & Ito, "Color Universal Design" (2008)
inline constexpr std::string_view black = "#000000";
inline constexpr std::string_view orange = "#E69F00";
inline constexpr std::string_view sky_blue = "#56B4E9";
inline constexpr std::string_view bluish_green = "#009E73";
inline constexpr std::string_view yellow = "#F0E442";
inline constexpr std::string_view blue = "#0072B2";
inline constexpr std::string_view vermillion = "#D55E00";
inline constexpr std::string_view reddish_purple = "#CC79A7";
inline constexpr std::string_view grey = "#666666";
}  // namespace palette

struct Axis {
  double min = 0.0;
  double max = 1.0;
  bool log = false;  // log axes widen to whole decades
  std::string label;
};

// How a series is drawn: a filled dot, an open ring, a line (optionally dashed) or a shaded area.
struct Mark {
  enum class Kind { dot, ring, line, area } kind = Kind::dot;
  std::string_view color = palette::black;
  std::string_view dash;  // SVG stroke-dasharray, "" for solid
  double opacity = 1.0;

  static Mark dot(std::string_view color) { return {Kind::dot, color, "", 1.0}; }
  static Mark ring(std::string_view color) { return {Kind::ring, color, "", 1.0}; }
  static Mark line(std::string_view color, std::string_view dash = "") { return {Kind::line, color, dash, 1.0}; }
  static Mark area(std::string_view color, double opacity) { return {Kind::area, color, "", opacity}; }
};

struct LegendEntry {
  Mark mark;
  std::string label;
};

class SvgChart {
 public:
  SvgChart(std::string title, Axis x, Axis y, int width = 880, int plot_height = 300);

  // A full-height shaded column from x0 to x1 (e.g. the pairs out of range).
  void shade_columns(double x0, double x1, const Mark& mark, std::string_view css_class, std::string_view tooltip);
  // A vertical bar at x from y0 to y1, `half_width` data units either side.
  void bar(double x, double half_width, double y0, double y1, const Mark& mark, std::string_view css_class,
           std::string_view tooltip);
  // A horizontal line across the plot at y, labelled at its end.
  void hline(double y, const Mark& mark, std::string_view label, std::string_view css_class);
  // One data point. `data_value` is written as data-value, with the shortest text that reads back exactly.
  void point(double x, double y, double data_value, const Mark& mark, std::string_view css_class,
             std::string_view tooltip);
  void legend(std::vector<LegendEntry> entries);

  int width() const { return width_; }
  int height() const;
  // The chart as an <svg> element for an HTML page (no XML declaration, no namespace needed), at y offset `top`
  // when nested in another SVG.
  std::string element(int top = 0) const;

 private:
  double px(double x) const;
  double py(double y) const;
  bool inside_y(double y) const;
  std::string axes() const;
  std::string legend_rows(int top) const;
  int legend_row_count() const;

  std::string title_;
  Axis x_;
  Axis y_;
  int width_;
  int plot_height_;
  std::string body_;              // the marks, in drawing order
  std::vector<double> label_ys_;  // pixel rows of line labels already placed, to keep them apart
  std::vector<LegendEntry> legend_;
};

// One standalone SVG document (XML declaration, namespace) stacking the charts top to bottom; with no charts,
// `empty_note` says why.
std::string svg_document(const std::vector<SvgChart>& charts, std::string_view title, std::string_view empty_note);

// 1, 10, 100, 1k, 10k, 1M, 0.1, 1e-3: the labels of a log axis.
std::string log_tick_label(double value);

}  // namespace ropelens::render_detail
