#pragma once
// Which campaign a report is of, and which part of it. A campaign is a seed, a budget (a number of cases for the
// whole campaign, a time per shard, or both) and everything that changes a verdict or what is saved (strategies,
// fill, shrinking, --max-saved, the convcheck version); `fuzz --shard I/N` runs part I of N of it, and `--campaign
// NAME` names one run of it, so that a shard left over from an earlier run is told apart from this run's.
// `report merge` checks these before adding shard reports up (reports/shard_merge.hpp).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace convcheck {

/// What `report merge` found missing or incomplete when told to merge a partial campaign (--allow-partial).
struct PartialMerge {
  std::vector<uint64_t> missing_shards;    // no report of them was given
  std::vector<uint64_t> incomplete_shards; // stopped before their planned cases (a signal, or --time first)
  bool empty() const { return missing_shards.empty() && incomplete_shards.empty(); }
};

struct CampaignIdentity {
  std::string command; // the subcommand that ran it: fuzz or check; empty in reports older than identities
  std::string name;    // --campaign NAME; may be empty
  uint64_t seed = 0;
  uint64_t shard_index = 0;
  uint64_t shard_count = 1;
  std::optional<int64_t> cases;  // the whole campaign's case budget (all shards together), when one was given
  std::optional<double> time_s;  // each shard's time budget, when one was given
  std::optional<int64_t> planned_cases; // this shard's share of `cases`
  std::vector<std::string> strategies;  // every strategy run, injected and external ones included, in order
  std::string fill;
  std::string focus; // fuzz --focus NAME (core/run/focus.hpp); "" for the default distribution
  bool shrink = true;
  int64_t max_saved = 1; // failing cases saved per strategy and direction
  std::string version;   // of the convcheck that ran it
  /// Set in a merged report: how many shard reports it sums, and what was missing from them (--allow-partial).
  std::optional<uint64_t> merged_shards;
  PartialMerge partial;
  /// Set in a merged report: case files shards saved beyond the campaign's --max-saved (each shard saves up to
  /// --max-saved per strategy and direction of its own cases; the merged report keeps only the first of the
  /// campaign, as the unsharded run saves them). The files stay in the corpus.
  std::vector<std::string> saved_beyond_max;

  bool known() const { return !command.empty(); }
};

} // namespace convcheck
