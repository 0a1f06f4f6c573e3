#pragma once
// The summary a person reads at the end of a run: one row per strategy and direction, then each failure with
// its one-line repro command.

#include <string>

#include "core/run/campaign.hpp"

namespace convcheck {

/// Multi-line text ending in a newline.
std::string text_summary(const CampaignReport &report);

} // namespace convcheck
