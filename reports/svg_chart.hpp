#pragma once
// Small charts for the HTML report, written as inline SVG text: no library, no script, no external resource.
// Every label is escaped; text takes the page's font. Each mark carries a <title>, so hovering shows its exact
// count without any JavaScript.

#include <string>
#include <vector>

namespace convcheck {

/// One series of a bar chart: a value per category, in one color (any CSS color).
struct BarSeries {
  std::string name;
  std::string color;
  std::vector<double> values;
};

struct BarChart {
  std::string title; // for the SVG's accessible <title>
  std::string x_label, y_label;
  std::vector<std::string> categories;
  std::vector<BarSeries> series;
  bool stacked = false;      // one bar per category with the series stacked, instead of side by side
  std::vector<bool> flagged; // per category (or empty): drawn on a pale red band, e.g. the "failed" bin
  /// Per category (or empty): a count labelled "n ✗" in red over a stacked bar, e.g. its cases with a failure, which
  /// would otherwise be a sliver too thin to read next to thousands that passed.
  std::vector<double> marks;
  int plot_height = 130;
  double category_width = 0; // 0: wide enough for the labels and the side-by-side bars
};

/// The chart as an <svg> element sized to its content, with a y axis from 0 and gridlines at round counts.
std::string bar_chart_svg(const BarChart &chart);

struct HeatMap {
  std::string title; // for the SVG's accessible <title>
  std::string x_label, y_label;
  std::vector<std::string> rows, columns;
  std::vector<double> values; // row-major: the shading and the number in each cell
  std::vector<double> marks;  // row-major or empty: cells with a mark > 0 get a red frame and "n ✗"
  int cell = 44;
};

/// The map as an <svg> element: rows top to bottom, columns left to right, shading from the largest value.
std::string heat_map_svg(const HeatMap &map);

/// "987", "12.3k", "4.5M": a count short enough for a chart cell.
std::string compact_count(double count);

} // namespace convcheck
