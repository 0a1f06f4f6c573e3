#pragma once
// The machine-readable run report (--report FILE.json):
//   {"seed", "cases", "elapsed_s", "warm_up_s" (the part of elapsed_s before the first case), "fill", "reference_s",
//    "interrupted" (stopped by a signal), "convcheck_version",
//    "peak_rss_kib" (main process), "worker_peak_rss_kib" (largest worker process),
//    "strategies": {name: {"passed", "failed", "skipped", "weak", "seconds", "cost_plan_skipped" (of "skipped", the
//                          runs the cost plan left out: core/run/cost_plan.hpp),
//                          "directions": {"output"|"grad_data"|"grad_weight": {... the same counts, "seconds"}}}},
//    "failures": [{"strategy", "direction", "case_index", "config", "problem", "kind" (mismatch|crash|timeout),
//                  "repro" (path or null when not saved), "shrunk_config", "shrunk_problem" (the problem on the
//                  shrunk config), "shrink_steps", "shrink_s", "shrink_runs"
//                  (runs of the failing strategy while shrinking; absent before issue 39: 0)}],
//    "stats": counts for pictures of the config space covered and of each strategy's error-to-bound ratios
//             (reports/stats_json.hpp); reports without it (older ones) still read, with empty stats,
//    "campaign": which campaign and which shard of it (reports/identity_json.hpp); older reports have none}
// Times are CPU-side sums over cases and threads, so with several threads they can add up to more than
// elapsed_s.

#include <string>

#include "core/run/campaign.hpp"

namespace convcheck {

/// The report as JSON text.
std::string json_report(const CampaignReport &report);

/// Writes it atomically; throws InputError naming the path when it cannot.
void write_json_report(const std::string &path, const CampaignReport &report);

/// Reads a report written by write_json_report; throws InputError naming the file and the problem.
CampaignReport read_json_report(const std::string &path);

/// One report from shard reports of the same campaign: counts, stats and times summed, elapsed_s the longest
/// shard, failures in case order. Throws InputError when the seeds differ.
CampaignReport merge_reports(const std::vector<CampaignReport> &shards);

} // namespace convcheck
