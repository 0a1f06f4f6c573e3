#pragma once
// The picture sections of the HTML report (reports/html_report.hpp), drawn from a report's CampaignStats.

#include <string>

#include "core/run/campaign.hpp"

namespace convcheck {

/// <section id="ratios">: per strategy, a histogram of per-case max error / bound, one bar per direction.
std::string ratio_section(const CampaignReport &report);

/// <section id="config-space">: a chart per config-space grid, failing cases in red.
std::string config_space_section(const CampaignReport &report);

/// The colors of the three directions in charts and legends (not green, red, amber or grey: those are verdicts).
const char *direction_color(Direction direction);

/// A legend: colored swatches with their labels.
std::string legend(const std::vector<std::pair<std::string, std::string>> &color_and_label);

} // namespace convcheck
