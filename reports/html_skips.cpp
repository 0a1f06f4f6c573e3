#include "reports/html_skips.hpp"

#include <fmt/format.h>

#include "reports/markup.hpp"

namespace convcheck {

std::string judged_section(const CampaignReport &report) {
  std::string items;
  for (const std::string &warning : judged_warnings(report)) items += "<li>" + markup_escape(warning) + "</li>\n";
  if (items.empty()) return "";
  return "<section id=\"judged\" class=\"warning\">\n<h2>Judged on too few cases, or declared what convcheck cannot use</h2>\n<ul>\n" + items +
         "</ul>\n</section>\n";
}

std::string skip_section(const CampaignReport &report) {
  std::string rows;
  for (const StrategyTally &strategy : report.tallies)
    for (const auto &[direction, tally] : strategy.by_direction) {
      if (tally.skipped == 0) continue;
      std::string reasons;
      for (const auto &[reason, count] : top_skip_reasons(tally.skip_reasons, max_skip_reasons))
        reasons += fmt::format("<li><span class=\"n-skip\">{}</span> {}</li>", count, markup_escape(reason));
      rows += fmt::format("<tr><td><code>{}</code></td><td>{}</td><td>{}</td><td><ul>{}</ul></td></tr>\n",
                          markup_escape(strategy.name), to_string(direction), tally.skipped, reasons);
    }
  for (const StrategyTally &strategy : report.tallies)
    for (const auto &[direction, tally] : strategy.by_direction) {
      if (tally.held_back == 0) continue;
      std::string bugs;
      for (const auto &[id, count] : tally.held_back_bugs)
        bugs += fmt::format("<li><span class=\"n-held\">{}</span> held back: {}</li>", count, markup_escape(id));
      rows += fmt::format("<tr><td><code>{}</code></td><td>{}</td><td>{}</td><td><ul>{}</ul></td></tr>\n",
                          markup_escape(strategy.name), to_string(direction), tally.held_back, bugs);
    }
  if (rows.empty()) return "";
  return "<section id=\"skips\">\n<h2>Why cases were skipped or held back</h2>\n<details><summary>per strategy and direction, "
         "each reason with its count</summary>\n<table class=\"unsaved\"><thead><tr><th>strategy</th>"
         "<th>direction</th><th>count</th><th>reasons (held back: the known library bug)</th></tr></thead><tbody>\n" +
         rows + "</tbody></table></details>\n</section>\n";
}

} // namespace convcheck
