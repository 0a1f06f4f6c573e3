#pragma once
// The report a person looks at (--html FILE.html, `report merge --html`): one self-contained HTML file, with
// inline CSS and inline SVG drawn by convcheck, no script and nothing fetched, so it opens anywhere, offline, as
// a CI artifact or from a mail. It shows, top to bottom:
// - the verdict in big letters (pass, or N findings: strategy x direction pairs that failed) and the run's seed,
//   cases, time, rate, fill and whether it was interrupted;
// - a strategy x direction matrix of passed / weak / failed / skipped counts;
// - each saved finding: strategy, direction, shrunk descriptor, problem, repro command, original config;
// - each strategy's distribution of max |got - expected| / bound per case and direction, in decades;
// - the config space the cases covered (groups, stride, dilation, padding, kernel, batch, layouts, dtype), with
//   the cases that failed somewhere in red. Reports without stats (older ones) say so instead of drawing these.

#include <string>

#include "core/run/campaign.hpp"

namespace convcheck {

/// The page as HTML text; `origin` is a line saying where the report came from ("" for a campaign run).
std::string html_report(const CampaignReport &report, const std::string &origin = "");

/// Writes it atomically; throws InputError naming the path when it cannot.
void write_html_report(const std::string &path, const CampaignReport &report, const std::string &origin = "");

} // namespace convcheck
