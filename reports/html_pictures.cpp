#include "reports/html_pictures.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "reports/markup.hpp"
#include "reports/svg_chart.hpp"

namespace convcheck {

namespace {

constexpr const char *case_color = "#5b8fd1";
constexpr const char *failing_color = "#d64545";

// Why the pictures are missing or partial, or "" when the stats cover every case.
std::string coverage_note(const CampaignReport &report) {
  if (report.stats.cases == 0)
    return report.cases == 0 ? "<p class=\"missing\">No case ran, so there is nothing to draw.</p>\n"
                             : "<p class=\"missing\">The pictures are missing: this report carries no "
                               "<code>stats</code> (it was written by a convcheck older than the pictures).</p>\n";
  if (report.stats.cases < report.cases)
    return fmt::format("<p class=\"missing\">The pictures cover {} of the {} cases: some merged reports carry no "
                       "<code>stats</code> (written by an older convcheck).</p>\n",
                       report.stats.cases, report.cases);
  return "";
}

std::string figure(const std::string &caption, const std::string &svg) {
  return fmt::format("<figure><figcaption>{}</figcaption>{}</figure>\n", markup_escape(caption), svg);
}

// Strategies in the order of the matrix, then any that only the stats know.
std::vector<const StrategyRatios *> ratios_in_report_order(const CampaignReport &report) {
  std::vector<const StrategyRatios *> ordered;
  for (const StrategyTally &tally : report.tallies)
    for (const StrategyRatios &ratios : report.stats.ratios)
      if (ratios.strategy == tally.name) ordered.push_back(&ratios);
  for (const StrategyRatios &ratios : report.stats.ratios)
    if (std::find(ordered.begin(), ordered.end(), &ratios) == ordered.end()) ordered.push_back(&ratios);
  return ordered;
}

std::string ratio_chart(const StrategyRatios &ratios) {
  BarChart chart;
  chart.title = "max error / bound of " + ratios.strategy;
  chart.x_label = "max |got \u2212 expected| / bound, up to";
  chart.y_label = "results";
  // Each bin by its upper limit ("<1e-6" as "1e-6", "<=1" as "1"): short enough for three charts a row.
  for (const std::string &label : ratio_bin_labels())
    chart.categories.push_back(label.substr(label.find_first_not_of("<=")));
  chart.flagged.assign(ratio_bin_count, false);
  chart.flagged.back() = true;
  chart.category_width = 34; // narrower than the labels want, so that three strategies fit side by side
  for (const auto &[direction, counts] : ratios.by_direction) {
    chart.series.push_back({to_string(direction), direction_color(direction), {counts.begin(), counts.end()}});
  }
  return bar_chart_svg(chart);
}

std::string grid_chart(const BinGrid &grid) {
  if (grid.rows.size() == 1) {
    BarChart chart;
    chart.title = grid.title;
    chart.x_label = grid.column_axis;
    chart.y_label = "cases";
    chart.categories = grid.columns;
    chart.stacked = true;
    BarSeries passing{"cases without a failure", case_color, {}}, failing{"cases with a failure", failing_color, {}};
    for (size_t c = 0; c < grid.columns.size(); ++c) {
      passing.values.push_back(static_cast<double>(grid.cases[c] - grid.failing[c]));
      failing.values.push_back(static_cast<double>(grid.failing[c]));
    }
    chart.marks = failing.values;
    chart.series = {passing, failing};
    return bar_chart_svg(chart);
  }
  HeatMap map;
  map.title = grid.title;
  map.x_label = grid.column_axis;
  map.y_label = grid.row_axis;
  map.rows = grid.rows;
  map.columns = grid.columns;
  map.values.assign(grid.cases.begin(), grid.cases.end());
  map.marks.assign(grid.failing.begin(), grid.failing.end());
  return heat_map_svg(map);
}

} // namespace

const char *direction_color(Direction direction) {
  switch (direction) {
  case Direction::output: return "#3b6fb6";
  case Direction::grad_data: return "#2a9d8f";
  case Direction::grad_weight: return "#8e6bbf";
  }
  return "#3b6fb6";
}

std::string legend(const std::vector<std::pair<std::string, std::string>> &color_and_label) {
  std::string html = "<div class=\"legend\">";
  for (const auto &[color, label] : color_and_label)
    html += fmt::format("<span><i style=\"background:{}\"></i>{}</span>", markup_escape(color), markup_escape(label));
  return html + "</div>\n";
}

std::string ratio_section(const CampaignReport &report) {
  std::string html = "<section id=\"ratios\">\n<h2>Error against the bound</h2>\n"
                     "<p class=\"note\">For each case, strategy and direction: the largest |got &minus; expected| / "
                     "bound over the result's elements, counted in decades (each bar up to its label, from the "
                     "label before). 0 is bit-exact; up to 1 passes; "
                     "<b>failed</b> is over the bound, non-finite, misshapen, missing or an error. Skipped results "
                     "are not counted.</p>\n";
  const std::string note = coverage_note(report);
  html += note;
  if (report.stats.cases == 0) return html + "</section>\n";
  std::vector<std::pair<std::string, std::string>> directions;
  for (Direction direction : all_directions) directions.emplace_back(direction_color(direction), to_string(direction));
  directions.emplace_back("#fbe0e0", "failed bin");
  html += legend(directions) + "<div class=\"charts\">\n";
  for (const StrategyRatios *ratios : ratios_in_report_order(report))
    html += figure(ratios->strategy, ratio_chart(*ratios));
  return html + "</div>\n</section>\n";
}

std::string config_space_section(const CampaignReport &report) {
  std::string html = "<section id=\"config-space\">\n<h2>Configuration space covered</h2>\n";
  const std::string note = coverage_note(report);
  if (report.stats.cases == 0) return html + note + "</section>\n";
  html += fmt::format("<p class=\"note\">Where the {} cases fell, one count per case in each picture. A case with a "
                      "failure in any strategy or direction also counts in red: the top of a bar, or in a heat map "
                      "cell <b style=\"color:#c62828\">n &#x2717;</b> over a red bar as wide as the failing share."
                      "</p>\n",
                      report.stats.cases);
  html += note + legend({{case_color, "cases"}, {failing_color, "cases with a failure"}});
  html += "<div class=\"charts\">\n";
  for (const BinGrid &grid : report.stats.config_space) html += figure(grid.title, grid_chart(grid));
  return html + "</div>\n</section>\n";
}

} // namespace convcheck
