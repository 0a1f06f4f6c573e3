#pragma once
// The machine-readable run report (--report FILE.json):
//   {"seed", "cases", "elapsed_s", "fill", "convcheck_version",
//    "strategies": {name: {"passed", "failed", "skipped", "weak",
//                          "directions": {"output"|"grad_data"|"grad_weight": {"passed", "failed", "skipped", "weak"}}}},
//    "failures": [{"strategy", "direction", "case_index", "config", "problem",
//                  "repro" (path or null when not saved), "shrunk_config", "shrink_steps"}]}

#include <string>

#include "core/campaign.hpp"

namespace convcheck {

/// The report as JSON text.
std::string json_report(const CampaignReport &report);

/// Writes it atomically; throws InputError naming the path when it cannot.
void write_json_report(const std::string &path, const CampaignReport &report);

} // namespace convcheck
