#pragma once
// The summary a person reads at the end of a run: one row per strategy and direction, then each failure with
// its one-line repro command.

#include <string>

#include "core/run/campaign.hpp"

namespace convcheck {

/// Multi-line text ending in a newline.
std::string text_summary(const CampaignReport &report);

/// A rate for people: whole numbers from 10 up ("3580"), three significant digits below ("0.168"), where a compiling
/// stack's one-hour campaign would read "0".
std::string format_rate(double per_second);

} // namespace convcheck
