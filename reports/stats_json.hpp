#pragma once
// CampaignStats in a JSON report, under "stats":
//   {"cases": N,
//    "config_space": {"groups"|"stride"|"dilation"|"padding"|"kernel"|"batch"|"layouts"|"dtype":
//                     {"title", "row_axis", "column_axis", "rows": [labels], "columns": [labels],
//                      "cases": [[count per column] per row], "failing": [[...] per row]}},
//    "ratio_bins": ["0", "<1e-6", ..., "<=1", "failed"],
//    "ratios": {strategy: {"output"|"grad_data"|"grad_weight": [count per ratio bin]}}}
// A 1-D histogram has one row labelled "". Bins are fixed: a report whose labels differ from this build's is
// rejected rather than summed bin by bin into the wrong places.

#include <nlohmann/json.hpp>

#include "core/run/campaign_stats.hpp"

namespace convcheck {

/// The "stats" object.
nlohmann::json stats_json(const CampaignStats &stats);

/// Reads a "stats" object; throws InputError naming the grid or strategy whose bins do not match.
CampaignStats stats_from_json(const nlohmann::json &json);

} // namespace convcheck
