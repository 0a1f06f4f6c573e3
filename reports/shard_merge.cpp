#include "reports/shard_merge.hpp"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/input_error.hpp"
#include "reports/json_report.hpp"

namespace convcheck {

namespace {

std::string shard_name(const CampaignIdentity &identity) {
  return fmt::format("{}/{}", identity.shard_index, identity.shard_count);
}

template <typename T> std::string text(const std::optional<T> &value) {
  return value ? fmt::format("{}", *value) : "none";
}

// The first field in which `shard` is of another campaign than `first`, as "NAME A differs from B", or "".
std::string difference(const CampaignIdentity &shard, const CampaignIdentity &first) {
  const auto differs = [](const char *name, const std::string &a, const std::string &b) {
    return a == b ? std::string() : fmt::format("{} {} differs from {}", name, a, b);
  };
  for (const std::string &found :
       {differs("command", shard.command, first.command),
        differs("seed", std::to_string(shard.seed), std::to_string(first.seed)),
        differs("shard count", std::to_string(shard.shard_count), std::to_string(first.shard_count)),
        differs("case budget", text(shard.cases), text(first.cases)),
        differs("time budget", text(shard.time_s), text(first.time_s)),
        differs("strategies", fmt::format("{}", fmt::join(shard.strategies, ",")),
                fmt::format("{}", fmt::join(first.strategies, ","))),
        differs("fill", shard.fill, first.fill), differs("focus", shard.focus, first.focus),
        differs("shrink", shard.shrink ? "on" : "off", first.shrink ? "on" : "off"),
        differs("max-saved", std::to_string(shard.max_saved), std::to_string(first.max_saved)),
        differs("convcheck version", shard.version, first.version)})
    if (!found.empty()) return found;
  return "";
}

bool incomplete(const CampaignReport &shard) {
  return shard.interrupted || (shard.identity.planned_cases && shard.cases < *shard.identity.planned_cases);
}

// Keeps the saved findings the unsharded campaign saves: the first max_saved failures of each strategy and
// direction in case order (as save_failures in core/run/campaign.cpp); the shards' other files are listed.
void keep_campaign_saved(CampaignReport &merged) {
  CampaignIdentity &identity = merged.identity;
  std::map<std::pair<std::string, Direction>, int64_t> seen;
  std::set<std::string> kept, beyond;
  for (ReportedFailure &reported : merged.failures) {
    const Failure &failure = reported.failure;
    const bool known = std::find(identity.strategies.begin(), identity.strategies.end(), failure.strategy) !=
                       identity.strategies.end();
    if (known && seen[{failure.strategy, failure.direction}]++ < identity.max_saved) {
      if (reported.saved) kept.insert(reported.saved->path);
    } else if (reported.saved) {
      beyond.insert(reported.saved->path);
      reported.saved.reset();
    }
  }
  for (const std::string &path : beyond)
    if (!kept.count(path)) identity.saved_beyond_max.push_back(path);
}

} // namespace

CampaignReport merge_shards(const std::vector<std::string> &paths, const std::vector<CampaignReport> &shards,
                            const ShardMergeOptions &options) {
  if (shards.empty()) throw InputError("report merge needs at least one JSON report");
  const CampaignIdentity &first = shards.front().identity;
  std::map<uint64_t, size_t> by_index;
  PartialMerge partial;
  for (size_t i = 0; i < shards.size(); ++i) {
    const CampaignIdentity &identity = shards[i].identity;
    const std::string &path = paths[i];
    if (!identity.known())
      throw InputError(fmt::format("report {} carries no campaign identity (written by an older convcheck): its "
                                   "shard cannot be checked",
                                   path));
    if (identity.merged_shards) throw InputError(fmt::format("report {} is a merged report, not a shard", path));
    const std::string &run = options.campaign_name.empty() ? first.name : options.campaign_name;
    if (identity.name != run)
      throw InputError(fmt::format("report {} is shard {} of run '{}', not of run '{}' (a stale shard?)", path,
                                   shard_name(identity), identity.name, run));
    if (std::string found = difference(identity, first); !found.empty())
      throw InputError(fmt::format("report {} is of another campaign: {} in report {}", path, found, paths.front()));
    if (auto [at, added] = by_index.emplace(identity.shard_index, i); !added)
      throw InputError(fmt::format("report {} is shard {} again (also report {})", path, shard_name(identity),
                                   paths[at->second]));
    if (incomplete(shards[i])) {
      if (!options.allow_partial)
        throw InputError(fmt::format(
            "report {} is shard {} stopped after {}{} cases{}; --allow-partial merges it as it is", path,
            shard_name(identity), shards[i].cases,
            identity.planned_cases ? fmt::format(" of {}", *identity.planned_cases) : "",
            shards[i].interrupted ? " (interrupted)" : ""));
      partial.incomplete_shards.push_back(identity.shard_index);
    }
  }
  for (uint64_t index = 0; index < first.shard_count; ++index) {
    if (by_index.count(index)) continue;
    if (!options.allow_partial)
      throw InputError(fmt::format("shard {}/{} is missing: none of the {} reports given is of it; --allow-partial "
                                   "merges without it",
                                   index, first.shard_count, shards.size()));
    partial.missing_shards.push_back(index);
  }
  std::sort(partial.incomplete_shards.begin(), partial.incomplete_shards.end());
  CampaignReport merged = merge_reports(shards);
  merged.identity = first;
  merged.identity.shard_index = 0;
  merged.identity.planned_cases = first.cases;
  merged.identity.merged_shards = shards.size();
  merged.identity.partial = partial;
  keep_campaign_saved(merged);
  return merged;
}

std::string describe_partial(const CampaignIdentity &merged) {
  const auto list = [&](const std::vector<uint64_t> &shards, const char *what) {
    return fmt::format("shard{} {} of {} {}", shards.size() == 1 ? "" : "s", fmt::join(shards, ", "),
                       merged.shard_count, what);
  };
  const PartialMerge &partial = merged.partial;
  if (partial.empty()) return "";
  if (partial.incomplete_shards.empty()) return list(partial.missing_shards, "missing");
  if (partial.missing_shards.empty()) return list(partial.incomplete_shards, "incomplete");
  return list(partial.missing_shards, "missing") + "; " + list(partial.incomplete_shards, "incomplete");
}

} // namespace convcheck
