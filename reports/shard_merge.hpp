#pragma once
// `report merge`: the shard reports of one campaign (fuzz --shard I/N) into the report of the whole campaign. The
// shards are checked first, so that what is merged is one campaign, each shard once: a report of another campaign
// (seed, budget, strategies, fill, shrinking, --max-saved, convcheck version or shard count differ), of another
// run of it (--campaign NAME differs: a stale shard), a second report of one shard, a missing shard, or a shard
// that stopped before its planned cases is refused. A partial campaign (shards missing or incomplete) merges only
// when asked to, and the merged report says which shards it lacks.
//
// With a case budget, the merged report of a complete campaign is the unsharded run's, timings and peak memory
// aside: the same cases, counts, stats and failures, and the same saved findings. Each shard saves the first
// --max-saved failures of each strategy and direction among its own cases, a superset of the campaign's first
// --max-saved, which the merged report keeps; the other files stay in the corpus and are listed under
// "saved_beyond_max". With a time budget each shard runs as many of its cases as its time allows, and the merge
// is their sum.

#include <string>
#include <vector>

#include "core/run/campaign.hpp"

namespace convcheck {

struct ShardMergeOptions {
  bool allow_partial = false; // merge with shards missing or incomplete, saying so
  std::string campaign_name;  // every shard must be of this run (--campaign); empty: of the first report's run
};

/// The merged report of `shards`, read from `paths` (same order). Throws InputError with one line naming the
/// report (or the missing shard) at fault.
CampaignReport merge_shards(const std::vector<std::string> &paths, const std::vector<CampaignReport> &shards,
                            const ShardMergeOptions &options);

/// One line on what a merged report lacks ("shards 1, 3 of 4 missing; shard 2 incomplete"), or "" for a whole
/// campaign.
std::string describe_partial(const CampaignIdentity &merged);

} // namespace convcheck
