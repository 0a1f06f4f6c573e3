#include <cstdint>

#include <gtest/gtest.h>

#include "core/numerics/case.hpp"
#include "core/problem/descriptor.hpp"
#include "core/run/strategy.hpp"
#include "oracles/loops/naive.hpp"
#include "tests/oracles/edge_configs.hpp"

namespace convcheck {

namespace {

/// How many elements of `direction` the `direct` strategy computes to a different bit pattern than `naive`.
int64_t elements_differing_from_naive(const std::string &descriptor, Direction direction) {
  const Problem config = parse_descriptor(descriptor);
  const Case conv_case = make_case(config, FillMode::normal, 11, 0);
  const Tensor direct = find_strategy("direct")->run(conv_case, direction);
  const Tensor naive = naive_result(config, conv_case, direction);
  int64_t differing = 0;
  for (int64_t i = 0; i < naive.size(); ++i) differing += direct.get(i) != naive.get(i);
  return differing;
}

} // namespace

TEST(Direct, AgreesWithReferenceOnEdgeConfigs) { CONVCHECK_EXPECT_AGREES_ON_EDGE_CONFIGS("direct"); }
TEST(Direct, AgreesWithReferenceOnEdgeConfigsWithCrops) { CONVCHECK_EXPECT_AGREES_ON_EDGE_CONFIGS("direct", 2, true); }
TEST(Direct, AgreesWithReferenceOn1dEdgeConfigs) { CONVCHECK_EXPECT_AGREES_ON_EDGE_CONFIGS("direct", 1, true); }
TEST(Direct, AgreesWithReferenceOn3dEdgeConfigs) { CONVCHECK_EXPECT_AGREES_ON_EDGE_CONFIGS("direct", 3, true); }
TEST(Direct, AgreesWithReferenceOnDeconvEdgeConfigsOfEveryRank) {
  for (int64_t ndims = 1; ndims <= 3; ++ndims) CONVCHECK_EXPECT_AGREES_ON_DECONV_EDGE_CONFIGS("direct", ndims, true);
}

TEST(Direct, SupportsEveryConfigAndDirection) {
  const Strategy *direct = find_strategy("direct");
  ASSERT_NE(direct, nullptr);
  for (int64_t ndims = 1; ndims <= max_ndims; ++ndims)
    for (const auto &edge : testing::edge_configs(ndims, true))
      for (Direction direction : all_directions)
        EXPECT_EQ(direct->unsupported_reason(parse_descriptor(edge.descriptor), direction), "") << edge.descriptor;
}

// The point of a second loop nest is a second rounding order: with many channels and taps per sum, forward and
// grad_data (taps outer, channels inner) must round differently from naive's channels-outer order somewhere.
TEST(Direct, RoundsInADifferentOrderThanNaive) {
  const std::string many_terms = "mb1ic16ih6iw6oc16kh3kw3pt1pb1pl1pr1";
  EXPECT_GT(elements_differing_from_naive(many_terms, Direction::output), 0);
  EXPECT_GT(elements_differing_from_naive(many_terms, Direction::grad_data), 0);
}

// The same in 3-D, where the depth taps join the taps summed outside the channels.
TEST(Direct, RoundsInADifferentOrderThanNaiveIn3d) {
  const std::string many_terms = "mb1ic8id4ih4iw4oc8kd3kh3kw3pfr1pbk1pt1pb1pl1pr1";
  EXPECT_GT(elements_differing_from_naive(many_terms, Direction::output), 0);
  EXPECT_GT(elements_differing_from_naive(many_terms, Direction::grad_data), 0);
}

} // namespace convcheck
