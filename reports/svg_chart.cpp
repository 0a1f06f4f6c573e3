#include "reports/svg_chart.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "reports/markup.hpp"

namespace convcheck {

namespace {

constexpr double char_width = 6.6; // average advance of an 11 px sans-serif character
constexpr const char *axis_color = "#57606a";
constexpr const char *grid_color = "#e5e7eb";
constexpr const char *fail_color = "#d64545";

double text_width(const std::string &text) { return char_width * static_cast<double>(text.size()); }

double widest(const std::vector<std::string> &labels) {
  double width = 0;
  for (const std::string &label : labels) width = std::max(width, text_width(label));
  return width;
}

// The smallest of 1, 2, 5 x 10^k that splits [0, max] into at most four steps, and the axis top it gives.
std::pair<double, double> round_axis(double max) {
  if (max <= 0) return {1, 1};
  double step = std::pow(10.0, std::floor(std::log10(max / 4)));
  for (double factor : {1.0, 2.0, 5.0, 10.0})
    if (max / (step * factor) <= 4) {
      step *= factor;
      break;
    }
  step = std::max(step, 1.0); // counts: no fractional gridlines
  return {step, std::ceil(max / step) * step};
}

std::string svg_open(double width, double height, const std::string &title) {
  return fmt::format("<svg class=\"chart\" width=\"{0:.0f}\" height=\"{1:.0f}\" viewBox=\"0 0 {0:.0f} {1:.0f}\" "
                     "role=\"img\"><title>{2}</title>\n",
                     width, height, markup_escape(title));
}

std::string text_at(double x, double y, const std::string &text, const std::string &attributes) {
  return fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" {}>{}</text>\n", x, y, attributes, markup_escape(text));
}

// The y axis label, turned to read upwards, centred on the plot.
std::string vertical_label(double x, double y, const std::string &text) {
  return fmt::format("<text transform=\"translate({:.1f} {:.1f}) rotate(-90)\" text-anchor=\"middle\" "
                     "class=\"axis-label\">{}</text>\n",
                     x, y, markup_escape(text));
}

} // namespace

std::string compact_count(double count) {
  if (count < 10000) return fmt::format("{:.0f}", count);
  if (count < 1e6) return fmt::format("{:.1f}k", count / 1e3);
  return fmt::format("{:.1f}M", count / 1e6);
}

std::string bar_chart_svg(const BarChart &chart) {
  const size_t series_count = std::max<size_t>(chart.series.size(), 1);
  const double category_width = chart.category_width > 0
                                    ? chart.category_width
                                    : std::max({30.0, widest(chart.categories) + 8,
                                                chart.stacked ? 0.0 : 9.0 * static_cast<double>(series_count) + 8});
  double max = 0;
  for (size_t c = 0; c < chart.categories.size(); ++c) {
    double stack = 0;
    for (const BarSeries &series : chart.series) {
      stack += series.values[c];
      max = std::max(max, series.values[c]);
    }
    if (chart.stacked) max = std::max(max, stack);
  }
  const auto [step, top] = round_axis(max);
  const bool marked = std::any_of(chart.marks.begin(), chart.marks.end(), [](double mark) { return mark > 0; });
  const double left = 24 + text_width(compact_count(top)) + 6, plot_top = marked ? 26 : 14, height = chart.plot_height;
  const double width = left + category_width * static_cast<double>(chart.categories.size()) + 8;
  std::string svg = svg_open(width, plot_top + height + 40, chart.title);
  for (size_t c = 0; c < chart.flagged.size() && c < chart.categories.size(); ++c)
    if (chart.flagged[c])
      svg += fmt::format("<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" fill=\"#fbe0e0\"/>\n",
                         left + category_width * static_cast<double>(c), plot_top, category_width, height);
  for (double tick = 0; tick <= top + step / 2; tick += step) {
    const double y = plot_top + height - height * tick / top;
    svg += fmt::format("<line x1=\"{:.1f}\" x2=\"{:.1f}\" y1=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"{}\"/>\n", left,
                       width - 8, y, y, tick == 0 ? axis_color : grid_color);
    svg += text_at(left - 5, y + 4, compact_count(tick), "text-anchor=\"end\" class=\"tick\"");
  }
  const double bar_width =
      chart.stacked ? category_width - 12 : (category_width - 8) / static_cast<double>(series_count);
  for (size_t c = 0; c < chart.categories.size(); ++c) {
    const double x0 = left + category_width * static_cast<double>(c);
    double stacked_below = 0;
    for (size_t s = 0; s < chart.series.size(); ++s) {
      const BarSeries &series = chart.series[s];
      const double value = series.values[c];
      const double bar_height = height * value / top;
      const double x = chart.stacked ? x0 + 6 : x0 + 4 + bar_width * static_cast<double>(s);
      const double y = plot_top + height - bar_height - (chart.stacked ? height * stacked_below / top : 0);
      stacked_below += value;
      if (value <= 0) continue;
      svg += fmt::format("<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" fill=\"{}\">"
                         "<title>{} · {}: {:.0f}</title></rect>\n",
                         x, y, std::max(bar_width - 1, 1.0), std::max(bar_height, 0.8), markup_escape(series.color),
                         markup_escape(chart.categories[c]), markup_escape(series.name), value);
    }
    const double mark = c < chart.marks.size() ? chart.marks[c] : 0;
    if (chart.stacked && stacked_below > 0)
      svg += text_at(x0 + category_width / 2, plot_top + height - height * stacked_below / top - (mark > 0 ? 15 : 3),
                     compact_count(stacked_below), "text-anchor=\"middle\" class=\"value\"");
    if (chart.stacked && mark > 0)
      svg += text_at(x0 + category_width / 2, plot_top + height - height * stacked_below / top - 3,
                     compact_count(mark) + " \u2717",
                     fmt::format("text-anchor=\"middle\" class=\"cell-mark\" style=\"fill:{}\"", fail_color));
    svg += text_at(x0 + category_width / 2, plot_top + height + 15, chart.categories[c],
                   "text-anchor=\"middle\" class=\"tick\"");
  }
  svg += text_at(left + (width - 8 - left) / 2, plot_top + height + 34, chart.x_label,
                 "text-anchor=\"middle\" class=\"axis-label\"");
  svg += vertical_label(12, plot_top + height / 2, chart.y_label);
  return svg + "</svg>";
}

namespace {

// One heat map cell: shading, its count, and when some of its cases failed, their count over a red bar as wide
// as their share.
std::string heat_cell(const HeatMap &map, size_t row, size_t column, double x, double y, double width, double max) {
  const size_t i = row * map.columns.size() + column;
  const double value = map.values[i], mark = map.marks.empty() ? 0 : map.marks[i], height = map.cell;
  // Square root shading, so that rare bins are still visibly non-empty next to a dominant one.
  const double shade = max > 0 ? std::sqrt(value / max) : 0;
  const bool dark = shade > 0.6;
  const std::string fill =
      value <= 0 ? "#f3f4f6"
                 : fmt::format("rgb({:.0f},{:.0f},{:.0f})", 232 - 190 * shade, 240 - 132 * shade, 250 - 72 * shade);
  std::string svg = fmt::format("<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" fill=\"{}\" "
                                "stroke=\"#ffffff\" stroke-width=\"2\"><title>{} {}, {} {}: {:.0f} cases, {:.0f} "
                                "with a failure</title></rect>\n",
                                x, y, width, height, fill, markup_escape(map.y_label), markup_escape(map.rows[row]),
                                markup_escape(map.x_label), markup_escape(map.columns[column]), value, mark);
  const std::string ink = dark ? "#ffffff" : value > 0 ? "#1f2328" : "#a0a6ad";
  svg += text_at(x + width / 2, y + (mark > 0 ? 18 : height / 2 + 4), compact_count(value),
                 fmt::format("text-anchor=\"middle\" class=\"cell\" style=\"fill:{}\"", ink));
  if (mark > 0) {
    svg += text_at(
        x + width / 2, y + 31, compact_count(mark) + " \u2717",
        fmt::format("text-anchor=\"middle\" class=\"cell-mark\" style=\"fill:{}\"", dark ? "#ffe3e3" : "#c62828"));
    svg += fmt::format("<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"4\" rx=\"1\" fill=\"{}\"/>\n", x + 4,
                       y + height - 8, (width - 8) * std::min(mark / value, 1.0), fail_color);
  }
  return svg;
}

} // namespace

std::string heat_map_svg(const HeatMap &map) {
  const double height = map.cell, width = std::max<double>(map.cell, widest(map.columns) + 10);
  const bool has_y_label = !map.y_label.empty();
  const double left = (has_y_label ? 22 : 4) + widest(map.rows) + 8, top = 6;
  const double plot_bottom = top + height * static_cast<double>(map.rows.size());
  const double max = map.values.empty() ? 0 : *std::max_element(map.values.begin(), map.values.end());
  std::string svg = svg_open(left + width * static_cast<double>(map.columns.size()) + 6, plot_bottom + 40, map.title);
  for (size_t r = 0; r < map.rows.size(); ++r) {
    const double y = top + height * static_cast<double>(r);
    svg += text_at(left - 6, y + height / 2 + 4, map.rows[r], "text-anchor=\"end\" class=\"tick\"");
    for (size_t c = 0; c < map.columns.size(); ++c)
      svg += heat_cell(map, r, c, left + width * static_cast<double>(c), y, width, max);
  }
  for (size_t c = 0; c < map.columns.size(); ++c)
    svg += text_at(left + width * (static_cast<double>(c) + 0.5), plot_bottom + 15, map.columns[c],
                   "text-anchor=\"middle\" class=\"tick\"");
  svg += text_at(left + width * static_cast<double>(map.columns.size()) / 2, plot_bottom + 34, map.x_label,
                 "text-anchor=\"middle\" class=\"axis-label\"");
  if (has_y_label) svg += vertical_label(12, top + (plot_bottom - top) / 2, map.y_label);
  return svg + "</svg>";
}

} // namespace convcheck
