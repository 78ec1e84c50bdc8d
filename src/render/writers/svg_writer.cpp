#include "render/writers/svg_writer.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "render/writers/xml_text.hpp"

namespace ropelens::render_detail {
namespace {

constexpr int kLeft = 74;
constexpr int kRight = 16;
constexpr int kTop = 34;
constexpr int kBelowPlot = 50;  // tick labels and the x-axis label
constexpr int kLegendRow = 20;
constexpr double kLabelGap = 13.0;  // pixels between line labels
constexpr double kCharWidth = 6.6;  // 12px sans-serif, for laying out the legend

std::string attr(double value) { return fmt::format("{:.1f}", value); }

// The step between ticks of a linear axis: 1, 2 or 5 times a power of ten, about ten ticks over the range.
double nice_step(double range) {
  const double raw = range / 10.0;
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  const double ratio = raw / magnitude;
  return magnitude * (ratio < 1.5 ? 1.0 : ratio < 3.5 ? 2.0 : ratio < 7.5 ? 5.0 : 10.0);
}

std::string tooltip_element(std::string_view tooltip) {
  return tooltip.empty() ? "" : fmt::format("<title>{}</title>", xml_escape(tooltip));
}

std::string mark_style(const Mark& mark) {
  switch (mark.kind) {
    case Mark::Kind::dot: return fmt::format(R"(fill="{}" stroke="none")", mark.color);
    case Mark::Kind::ring: return fmt::format(R"(fill="none" stroke="{}" stroke-width="1.5")", mark.color);
    case Mark::Kind::line:
      return fmt::format(R"(fill="none" stroke="{}" stroke-width="1.5"{})", mark.color,
                         mark.dash.empty() ? "" : fmt::format(R"( stroke-dasharray="{}")", mark.dash));
    case Mark::Kind::area: return fmt::format(R"(fill="{}" fill-opacity="{}" stroke="none")", mark.color, mark.opacity);
  }
  return {};
}

double legend_entry_width(const LegendEntry& entry) {
  return 26.0 + kCharWidth * static_cast<double>(entry.label.size()) + 18.0;
}

std::string legend_marker(const Mark& mark, double x, double y) {
  switch (mark.kind) {
    case Mark::Kind::dot:
    case Mark::Kind::ring:
      return fmt::format(R"(<circle class="legend" cx="{}" cy="{}" r="{}" {}/>)", attr(x + 10), attr(y),
                         mark.kind == Mark::Kind::dot ? "3" : "4.5", mark_style(mark));
    case Mark::Kind::line:
      return fmt::format(R"(<line x1="{}" y1="{}" x2="{}" y2="{}" {}/>)", attr(x), attr(y), attr(x + 20), attr(y),
                         mark_style(mark));
    case Mark::Kind::area:
      return fmt::format(R"(<rect x="{}" y="{}" width="20" height="10" {}/>)", attr(x), attr(y - 5), mark_style(mark));
  }
  return {};
}

}  // namespace

std::string log_tick_label(double value) {
  const int exponent = static_cast<int>(std::lround(std::log10(value)));
  if (exponent < -2) return fmt::format("1e{}", exponent);
  if (exponent < 0) return fmt::format("{}", std::pow(10.0, exponent));
  static const char* const kSuffixes[] = {"", "k", "M", "G", "T", "P"};
  const int group = std::min(exponent / 3, 5);
  return fmt::format("{}{}", static_cast<long long>(std::llround(std::pow(10.0, exponent - 3 * group))),
                     kSuffixes[group]);
}

SvgChart::SvgChart(std::string title, Axis x, Axis y, int width, int plot_height)
    : title_(std::move(title)), x_(std::move(x)), y_(std::move(y)), width_(width), plot_height_(plot_height) {
  for (Axis* axis : {&x_, &y_}) {
    if (axis->log) {
      axis->min = std::pow(10.0, std::floor(std::log10(std::max(axis->min, 1e-300))));
      axis->max = std::pow(10.0, std::ceil(std::log10(std::max(axis->max, axis->min))));
      if (axis->max <= axis->min) axis->max = axis->min * 10.0;
    } else if (axis->max <= axis->min) {
      axis->max = axis->min + 1.0;
    }
  }
}

double SvgChart::px(double x) const {
  const double width = width_ - kLeft - kRight;
  const double t = x_.log ? (std::log10(x) - std::log10(x_.min)) / (std::log10(x_.max) - std::log10(x_.min))
                          : (x - x_.min) / (x_.max - x_.min);
  return kLeft + t * width;
}

double SvgChart::py(double y) const {
  const double t = y_.log ? (std::log10(y) - std::log10(y_.min)) / (std::log10(y_.max) - std::log10(y_.min))
                          : (y - y_.min) / (y_.max - y_.min);
  return kTop + (1.0 - t) * plot_height_;
}

bool SvgChart::inside_y(double y) const { return y >= y_.min && y <= y_.max && (!y_.log || y > 0.0); }

void SvgChart::shade_columns(double x0, double x1, const Mark& mark, std::string_view css_class,
                             std::string_view tooltip) {
  body_ += fmt::format(R"(<rect class="{}" x="{}" y="{}" width="{}" height="{}" {}>{}</rect>)", css_class, attr(px(x0)),
                       kTop, attr(px(x1) - px(x0)), plot_height_, mark_style(mark), tooltip_element(tooltip));
  body_ += '\n';
}

void SvgChart::bar(double x, double half_width, double y0, double y1, const Mark& mark, std::string_view css_class,
                   std::string_view tooltip) {
  if (!inside_y(y0) || !inside_y(y1)) return;
  const double top = std::min(py(y0), py(y1));
  body_ += fmt::format(R"(<rect class="{}" x="{}" y="{}" width="{}" height="{}" {}>{}</rect>)", css_class,
                       attr(px(x - half_width)), attr(top), attr(px(x + half_width) - px(x - half_width)),
                       attr(std::max(std::abs(py(y1) - py(y0)), 1.0)), mark_style(mark), tooltip_element(tooltip));
  body_ += '\n';
}

void SvgChart::hline(double y, const Mark& mark, std::string_view label, std::string_view css_class) {
  if (!inside_y(y)) return;
  const double row = py(y);
  body_ += fmt::format(R"(<line class="{}" x1="{}" y1="{}" x2="{}" y2="{}" {}/>)", css_class, kLeft, attr(row),
                       width_ - kRight, attr(row), mark_style(mark));
  body_ += '\n';
  // The label sits above the line at the right end; when another label is there, at the left end, else below.
  const auto taken = [&](double at) {
    return std::any_of(label_ys_.begin(), label_ys_.end(),
                       [&](double y_label) { return std::abs(y_label - at) < kLabelGap; });
  };
  double text_y = row - 4.0;
  bool at_right = true;
  if (taken(text_y)) {
    at_right = false;
    if (taken(text_y)) text_y = row + 13.0;
  }
  label_ys_.push_back(text_y);
  body_ += fmt::format(R"(<text x="{}" y="{}" text-anchor="{}" font-size="11" fill="{}">{}</text>)",
                       at_right ? width_ - kRight - 4 : kLeft + 4, attr(text_y), at_right ? "end" : "start", mark.color,
                       xml_escape(label));
  body_ += '\n';
}

void SvgChart::point(double x, double y, double data_value, const Mark& mark, std::string_view css_class,
                     std::string_view tooltip) {
  if (!inside_y(y)) return;
  body_ += fmt::format(R"(<circle class="pt {}" cx="{}" cy="{}" r="{}" {} data-value="{}">{}</circle>)", css_class,
                       attr(px(x)), attr(py(y)), mark.kind == Mark::Kind::dot ? "3" : "4.5", mark_style(mark),
                       data_value, tooltip_element(tooltip));
  body_ += '\n';
}

void SvgChart::legend(std::vector<LegendEntry> entries) { legend_ = std::move(entries); }

int SvgChart::legend_row_count() const {
  int rows = legend_.empty() ? 0 : 1;
  double x = 0.0;
  const double room = width_ - kLeft - kRight;
  for (const auto& entry : legend_) {
    const double w = legend_entry_width(entry);
    if (x > 0.0 && x + w > room) ++rows, x = 0.0;
    x += w;
  }
  return rows;
}

int SvgChart::height() const { return kTop + plot_height_ + kBelowPlot + legend_row_count() * kLegendRow + 6; }

std::string SvgChart::axes() const {
  std::string out;
  const int right = width_ - kRight;
  const int bottom = kTop + plot_height_;
  out += fmt::format(R"(<rect x="{}" y="{}" width="{}" height="{}" fill="#ffffff" stroke="#999999"/>)", kLeft, kTop,
                     right - kLeft, plot_height_);
  out += '\n';
  if (y_.log) {
    for (double decade = y_.min; decade <= y_.max * 1.0001; decade *= 10.0) {
      const double row = py(decade);
      out += fmt::format(R"(<line class="grid" x1="{}" y1="{}" x2="{}" y2="{}" stroke="#dddddd"/>)", kLeft, attr(row),
                         right, attr(row));
      out += fmt::format(R"(<text x="{}" y="{}" text-anchor="end" font-size="11">{}</text>)", kLeft - 6, attr(row + 4),
                         log_tick_label(decade));
      out += '\n';
      for (int m = 2; m <= 9 && decade * m < y_.max; ++m)
        out += fmt::format(R"(<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="#999999"/>)", kLeft - 3,
                           attr(py(decade * m)), kLeft, attr(py(decade * m)));
    }
  } else {
    const double step = nice_step(y_.max - y_.min);
    for (double v = std::ceil(y_.min / step) * step + 0.0; v <= y_.max; v += step)
      out +=
          fmt::format(
              R"(<line class="grid" x1="{}" y1="{}" x2="{}" y2="{}" stroke="#dddddd"/><text x="{}" y="{}" text-anchor="end" font-size="11">{}</text>)",
              kLeft, attr(py(v)), right, attr(py(v)), kLeft - 6, attr(py(v) + 4), v) +
          "\n";
  }
  const double step = nice_step(x_.max - x_.min);
  for (double v = std::ceil(x_.min / step) * step + 0.0; v <= x_.max; v += step) {
    out += fmt::format(R"(<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="#999999"/>)", attr(px(v)), bottom, attr(px(v)),
                       bottom + 4);
    out += fmt::format(R"(<text x="{}" y="{}" text-anchor="middle" font-size="11">{}</text>)", attr(px(v)), bottom + 16,
                       v);
    out += '\n';
  }
  out += fmt::format(R"(<text x="{}" y="{}" text-anchor="middle" font-size="12">{}</text>)",
                     attr((kLeft + right) / 2.0), bottom + 36, xml_escape(x_.label));
  out += fmt::format(
      R"svg(<text transform="translate(16 {}) rotate(-90)" text-anchor="middle" font-size="12">{}</text>)svg",
      attr(kTop + plot_height_ / 2.0), xml_escape(y_.label));
  out += '\n';
  return out;
}

std::string SvgChart::legend_rows(int top) const {
  std::string out;
  double x = kLeft;
  double y = top + kLegendRow / 2.0;
  for (const auto& entry : legend_) {
    const double w = legend_entry_width(entry);
    if (x > kLeft && x + w > width_ - kRight) x = kLeft, y += kLegendRow;
    out += legend_marker(entry.mark, x, y);
    out += fmt::format(R"(<text x="{}" y="{}" font-size="12">{}</text>)", attr(x + 26), attr(y + 4),
                       xml_escape(entry.label));
    out += '\n';
    x += w;
  }
  return out;
}

std::string SvgChart::element(int top) const {
  std::string out = fmt::format(
      R"(<svg class="chart" width="{0}" height="{1}" viewBox="0 0 {0} {1}"{2} font-family="DejaVu Sans, Arial, sans-serif" role="img" aria-label="{3}">)",
      width_, height(), top > 0 ? fmt::format(R"( y="{}")", top) : "", xml_escape(title_));
  out += '\n';
  out += fmt::format(R"(<text x="{}" y="20" font-size="14" font-weight="bold">{}</text>)", kLeft, xml_escape(title_));
  out += '\n';
  out += axes();
  out += body_;
  out += legend_rows(kTop + plot_height_ + kBelowPlot);
  out += "</svg>\n";
  return out;
}

std::string svg_document(const std::vector<SvgChart>& charts, std::string_view title, std::string_view empty_note) {
  int width = charts.empty() ? 480 : 0;
  int height = charts.empty() ? 40 : 0;
  for (const auto& chart : charts) {
    width = std::max(width, chart.width());
    height += chart.height();
  }
  std::string out = fmt::format(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      R"(<svg xmlns="http://www.w3.org/2000/svg" width="{0}" height="{1}" viewBox="0 0 {0} {1}">)"
      "\n<title>{2}</title>\n<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n",
      width, height, xml_escape(title));
  if (charts.empty())
    out += fmt::format(R"(<text x="12" y="24" font-family="DejaVu Sans, Arial, sans-serif" font-size="13">{}</text>)"
                       "\n",
                       xml_escape(empty_note));
  int top = 0;
  for (const auto& chart : charts) {
    out += chart.element(top);
    top += chart.height();
  }
  out += "</svg>\n";
  return out;
}

}  // namespace ropelens::render_detail
