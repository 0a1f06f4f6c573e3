#pragma once
// The skip section of the HTML report (reports/html_report.hpp): the warnings of strategies the user named that
// were judged on too few cases (core/run/judged.hpp), and per strategy and direction why cases were skipped.

#include <string>

#include "core/run/campaign.hpp"

namespace convcheck {

/// <section id="judged">: one warning per named strategy judged on too few cases; "" when there is none.
std::string judged_section(const CampaignReport &report);

/// <section id="skips">: a table of strategy, direction, skipped count and the reasons with their counts; "" when
/// nothing was skipped.
std::string skip_section(const CampaignReport &report);

} // namespace convcheck
