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

} // namespace
} // namespace convcheck
