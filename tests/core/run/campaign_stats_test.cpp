// Campaign stats put each case in the bins a reader expects, and shards merge into exactly the one-run stats.

#include "core/run/campaign_stats.hpp"

#include <algorithm>
#include <numeric>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "core/problem/descriptor.hpp"
#include "core/problem/generators.hpp"

namespace convcheck {
namespace {

Outcome outcome(const std::string &strategy, Direction direction, Verdict verdict, double max_ratio = 0) {
  Outcome result;
  result.strategy = strategy;
  result.direction = direction;
  result.verdict = verdict;
  result.diff.max_ratio = max_ratio;
  return result;
}

const BinGrid &grid(const CampaignStats &stats, const std::string &key) {
  for (const BinGrid &grid : stats.config_space)
    if (grid.key == key) return grid;
  throw std::runtime_error("no grid " + key);
}

// The one bin of `key` that holds a case, as "row/column" labels.
std::string filled_bin(const CampaignStats &stats, const std::string &key) {
  const BinGrid &g = grid(stats, key);
  std::string found;
  for (size_t r = 0; r < g.rows.size(); ++r)
    for (size_t c = 0; c < g.columns.size(); ++c)
      if (g.cases_at(r, c) > 0) found += g.rows[r] + "/" + g.columns[c] + ";";
  return found;
}

TEST(CampaignStats, CountsACaseInTheBinsItBelongsTo) {
  CampaignStats stats;
  // Depthwise (G = C = K = 4), stride 2 x 1, dilation 1 x 3, top padding only, left = right, 7 x 2 kernel, batch 6.
  stats.add(parse_descriptor("g4mb6ic4ih9iw9oc4kh7kw2sh2dlw3pt1pl2pr2_nhwc_ohwi_f64"),
            {outcome("naive", Direction::output, Verdict::passed, 0.05)});
  EXPECT_EQ(stats.cases, 1);
  EXPECT_EQ(filled_bin(stats, "groups"), "/depthwise;");
  EXPECT_EQ(filled_bin(stats, "stride"), "2/1;");
  EXPECT_EQ(filled_bin(stats, "dilation"), "1/3;");
  EXPECT_EQ(filled_bin(stats, "padding"), "one side/even;");
  EXPECT_EQ(filled_bin(stats, "kernel"), "6+/2;");
  EXPECT_EQ(filled_bin(stats, "batch"), "/5-8;");
  EXPECT_EQ(filled_bin(stats, "layouts"), "NHWC/OHWI;");
  EXPECT_EQ(filled_bin(stats, "dtype"), "/f64;");
  for (const BinGrid &g : stats.config_space)
    EXPECT_EQ(std::accumulate(g.failing.begin(), g.failing.end(), int64_t{0}), 0) << g.key;

  // Grouped but not depthwise, uneven padding on both axes, a failure in one direction: failing in every grid.
  stats.add(parse_descriptor("g2ic4ih5oc6kh3pt1pb2pl3pr1"), {outcome("naive", Direction::output, Verdict::passed),
                                                             outcome("naive", Direction::grad_data, Verdict::failed)});
  EXPECT_EQ(grid(stats, "groups").cases_at(0, 2), 1);
  EXPECT_EQ(grid(stats, "padding").cases_at(3, 3), 1);
  for (const BinGrid &g : stats.config_space) {
    EXPECT_EQ(std::accumulate(g.cases.begin(), g.cases.end(), int64_t{0}), 2) << g.key;
    EXPECT_EQ(std::accumulate(g.failing.begin(), g.failing.end(), int64_t{0}), 1) << g.key;
  }
}

TEST(CampaignStats, RatiosFallInDecadesAndFailuresInTheirOwnBin) {
  const auto bin = [](Verdict verdict, double ratio) {
    return ratio_bin_labels()[ratio_bin(outcome("s", Direction::output, verdict, ratio))];
  };
  EXPECT_EQ(bin(Verdict::passed, 0), "0");
  EXPECT_EQ(bin(Verdict::passed, 1e-9), "<1e-6");
  EXPECT_EQ(bin(Verdict::passed, 1e-6), "<1e-5");
  EXPECT_EQ(bin(Verdict::weak, 5e-4), "<1e-3");
  EXPECT_EQ(bin(Verdict::passed, 0.0999), "<0.1");
  EXPECT_EQ(bin(Verdict::passed, 0.1), "<=1");
  EXPECT_EQ(bin(Verdict::passed, 1.0), "<=1");  // an error exactly at its bound passes
  EXPECT_EQ(bin(Verdict::failed, 0), "failed"); // e.g. a shape mismatch: nothing was compared
  EXPECT_EQ(bin(Verdict::failed, 3.5), "failed");

  CampaignStats stats;
  stats.add(parse_descriptor("ic1ih1oc1kh1"),
            {outcome("a", Direction::grad_weight, Verdict::passed, 0.02),
             outcome("a", Direction::output, Verdict::skipped), outcome("b", Direction::output, Verdict::failed, 2)});
  ASSERT_EQ(stats.ratios.size(), 2u);
  EXPECT_EQ(stats.ratios[0].strategy, "a");
  EXPECT_EQ(stats.ratios[0].by_direction[Direction::grad_weight][6], 1); // grad_weight, <0.1
  EXPECT_EQ(stats.ratios[0].by_direction.count(Direction::output), 0u); // the skipped output is not counted
  EXPECT_EQ(stats.ratios[0].by_direction.count(Direction::grad_data), 0u);
  EXPECT_EQ(stats.ratios[1].by_direction[Direction::output][ratio_bin_count - 1], 1);
}

// Any split of a campaign's cases into shards merges back into the stats of the whole run.
RC_GTEST_PROP(CampaignStats, ShardsMergeIntoTheWholeRun, ()) {
  const auto cases = *rc::gen::inRange(0, 60);
  const auto shard_count = *rc::gen::inRange(1, 5);
  CampaignStats whole;
  std::vector<CampaignStats> shards(static_cast<size_t>(shard_count));
  for (int i = 0; i < cases; ++i) {
    const Problem config = generate_problem(*rc::gen::arbitrary<uint64_t>(), static_cast<uint64_t>(i));
    std::vector<Outcome> outcomes;
    for (const char *strategy : {"naive", "im2col"})
      for (Direction direction : all_directions)
        outcomes.push_back(outcome(strategy, direction,
                                   *rc::gen::element(Verdict::passed, Verdict::weak, Verdict::failed, Verdict::skipped),
                                   *rc::gen::element(0.0, 3e-7, 4e-3, 0.5, 1.0)));
    whole.add(config, outcomes);
    // Odd shards see the strategies in the other order: merging matches them by name, not position.
    const auto shard = static_cast<size_t>(*rc::gen::inRange(0, shard_count));
    if (shard % 2 == 1) std::reverse(outcomes.begin(), outcomes.end());
    shards[shard].add(config, outcomes);
  }
  CampaignStats merged;
  for (const CampaignStats &shard : shards) merged.merge(shard);
  const auto by_name = [](std::vector<StrategyRatios> ratios) {
    std::sort(ratios.begin(), ratios.end(), [](const auto &a, const auto &b) { return a.strategy < b.strategy; });
    return ratios;
  };
  RC_ASSERT(merged.cases == whole.cases);
  RC_ASSERT(merged.config_space == whole.config_space);
  RC_ASSERT(by_name(merged.ratios) == by_name(whole.ratios));
}

} // namespace
} // namespace convcheck
