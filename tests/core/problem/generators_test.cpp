// The default distribution is valid by construction and reaches every corner often, not by luck.

#include "core/problem/generators.hpp"

#include <functional>
#include <map>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "core/problem/coverage.hpp"
#include "core/input_error.hpp"

namespace convcheck {
namespace {

RC_GTEST_PROP(Generators, EveryConfigIsValid, ()) {
  const Problem config = *problems();
  validate(config); // throws, failing the property, on an invalid config
  RC_ASSERT(config.height().out() >= 1);
}

RC_GTEST_PROP(Generators, EveryConfigOfEveryTierIsValidAndWithinItsBudget, ()) {
  const Tier tier = *rc::gen::element(Tier::small, Tier::medium, Tier::large);
  const Problem config = *problems(tier);
  validate(config);
  if (tier_budget(tier) > 0) RC_ASSERT(3 * config.multiply_adds() <= tier_budget(tier));
}

// The i-th problem of `generator`, deterministically.
Problem sample(const rc::Gen<Problem> &generator, uint64_t i) {
  return generator(rc::Random(rc::Random::Key{1, 2, 3, i}), rc::kNominalSize).value();
}

TEST(Generators, MediumAndLargeTiersReachRealSizes) {
  // Where blocked kernels have a full block and a tail: per-group channels past 16, kernels past 5, batch past 2.
  for (Tier tier : {Tier::medium, Tier::large}) {
    int channels_past_16 = 0, kernel_past_5 = 0, batch_past_2 = 0;
    const int cases = 1000;
    for (int i = 0; i < cases; ++i) {
      const Problem p = sample(problems(tier), static_cast<uint64_t>(i));
      channels_past_16 += p.out_channels_per_group() > 16 || p.in_channels_per_group() > 16 || p.groups > 16;
      kernel_past_5 += p.width().kernel > 5;
      batch_past_2 += p.batch > 2;
    }
    EXPECT_GE(channels_past_16, cases / 5) << to_string(tier);
    EXPECT_GE(kernel_past_5, cases / 20) << to_string(tier);
    EXPECT_GE(batch_past_2, cases / 5) << to_string(tier);
  }
}

TEST(Generators, EveryBlockSeamIsCrossed) {
  // A bug at a seam shows on a share of the cases crossing it; the seams of the injected seam bugs (oc_tail_fwd,
  // kw_unroll5, mb_tail_dgrad) come up in at least 0.4% of cases, so such a bug is found in a few hundred cases,
  // and every seam at least once in 2,000 cases.
  const int cases = 20000;
  std::map<std::string, int> hits;
  for (int i = 0; i < cases; ++i) {
    const Problem config = generate_problem(5, static_cast<uint64_t>(i));
    for (const Corner &seam : seams()) hits[seam.name] += seam.holds(config);
  }
  for (const Corner &seam : seams()) EXPECT_GE(hits[seam.name], cases / 2000) << seam.name;
  for (const char *name : {"out channels/group: tail after 16", "kernel width past 5", "batch: tail after 2"})
    EXPECT_GE(hits[name], cases * 4 / 1000) << name;
}

TEST(Generators, SameSeedAndIndexSameConfig) {
  EXPECT_EQ(generate_problem(3, 17), generate_problem(3, 17));
  EXPECT_NE(generate_problem(3, 17), generate_problem(3, 18));
  EXPECT_NE(generate_problem(3, 17), generate_problem(4, 17));
}

// The share of cases, in thousandths, a corner must reach: every layout pair is one of six, so at least 10%; a
// reduction stretched for the witness fill is drawn in one low-precision problem in 16, a third of them per
// direction (about 0.6% of cases, docs/bound.md), so at least 0.3%; every other corner at least 3%.
int floor_per_mille(const std::string &corner) {
  if (corner.find(" + ") != std::string::npos) return 100;
  if (corner.ends_with("past the narrow range")) return 3;
  return 30;
}

TEST(Generators, CornersAreReachedOften) {
  const int cases = 3000;
  std::map<std::string, int> hits;
  for (int i = 0; i < cases; ++i) {
    const Problem config = generate_problem(1, static_cast<uint64_t>(i));
    for (const Corner &corner : corners()) hits[corner.name] += corner.holds(config);
  }
  for (const Corner &corner : corners())
    EXPECT_GE(hits[corner.name], cases * floor_per_mille(corner.name) / 1000)
        << corner.name << ": " << hits[corner.name] << " of " << cases;
}

TEST(Generators, EveryRankIsDrawnOftenAndReachesTheCornersItself) {
  // 1-D and 3-D in about one case in five each, and within each rank the same corners as overall, except the
  // rank corners themselves and unequal spatial sizes, which a 1-D problem cannot have.
  const int cases = 9000;
  std::map<int64_t, int> per_rank;
  std::map<std::pair<int64_t, std::string>, int> hits;
  for (int i = 0; i < cases; ++i) {
    const Problem problem = generate_problem(2, static_cast<uint64_t>(i));
    ++per_rank[problem.ndims];
    for (const Corner &corner : corners()) hits[{problem.ndims, corner.name}] += corner.holds(problem);
  }
  for (int64_t ndims = 1; ndims <= 3; ++ndims) {
    EXPECT_GE(per_rank[ndims], cases * 15 / 100) << ndims << "-D: " << per_rank[ndims] << " of " << cases;
    for (const Corner &corner : corners()) {
      if (corner.name.ends_with("-D") || (ndims == 1 && corner.name == "unequal spatial sizes")) continue;
      const int hit = hits[std::pair{ndims, corner.name}];
      EXPECT_GE(hit, per_rank[ndims] * floor_per_mille(corner.name) / 1000)
          << ndims << "-D, " << corner.name << ": " << hit << " of " << per_rank[ndims];
    }
  }
}

} // namespace
} // namespace convcheck
