#pragma once
// CampaignIdentity in a JSON report, under "campaign":
//   {"command": "fuzz"|"check", "name", "seed", "shard": {"index", "count"}, "cases" (the whole campaign's case
//    budget, or null), "time_s" (each shard's time budget, or null), "planned_cases" (this shard's share of
//    "cases", or null), "strategies": [names], "fill", "shrink", "max_saved", "convcheck_version"}
// and in a merged report also "merged_shards" (how many shard reports it sums), "partial": {"missing_shards",
// "incomplete_shards"} (present only when --allow-partial merged an incomplete campaign) and "saved_beyond_max"
// (case files the shards saved beyond the campaign's --max-saved). A merged report's "shard" is {"count": N}.

#include <nlohmann/json.hpp>

#include "core/run/campaign_identity.hpp"

namespace convcheck {

/// The "campaign" object.
nlohmann::json identity_json(const CampaignIdentity &identity);

/// Reads a "campaign" object; throws nlohmann::json's errors for missing or mistyped fields.
CampaignIdentity identity_from_json(const nlohmann::json &json);

} // namespace convcheck
