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

TEST(Generators, SameSeedAndIndexSameConfig) {
  EXPECT_EQ(generate_problem(3, 17), generate_problem(3, 17));
  EXPECT_NE(generate_problem(3, 17), generate_problem(3, 18));
  EXPECT_NE(generate_problem(3, 17), generate_problem(4, 17));
}

TEST(Generators, CornersAreReachedOften) {
  // Every corner in at least 3% of cases; every layout pair is one of six, so at least 10% each.
  const int cases = 3000;
  std::map<std::string, int> hits;
  for (int i = 0; i < cases; ++i) {
    const Problem config = generate_problem(1, static_cast<uint64_t>(i));
    for (const Corner &corner : corners()) hits[corner.name] += corner.holds(config);
  }
  for (const Corner &corner : corners()) {
    const bool layout_pair = corner.name.find(" + ") != std::string::npos;
    EXPECT_GE(hits[corner.name], layout_pair ? cases / 10 : cases * 3 / 100)
        << corner.name << ": " << hits[corner.name] << " of " << cases;
  }
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
      const bool layout_pair = corner.name.find(" + ") != std::string::npos;
      const int hit = hits[std::pair{ndims, corner.name}];
      EXPECT_GE(hit, per_rank[ndims] * (layout_pair ? 10 : 3) / 100)
          << ndims << "-D, " << corner.name << ": " << hit << " of " << per_rank[ndims];
    }
  }
}

} // namespace
} // namespace convcheck
