#include <gtest/gtest.h>

#include "tests/oracles/edge_configs.hpp"

namespace convcheck {

TEST(Naive, AgreesWithReferenceOnEdgeConfigs) { CONVCHECK_EXPECT_AGREES_ON_EDGE_CONFIGS("naive"); }
TEST(Naive, AgreesWithReferenceOnEdgeConfigsWithCrops) { CONVCHECK_EXPECT_AGREES_ON_EDGE_CONFIGS("naive", 2, true); }
TEST(Naive, AgreesWithReferenceOn1dEdgeConfigs) { CONVCHECK_EXPECT_AGREES_ON_EDGE_CONFIGS("naive", 1, true); }
TEST(Naive, AgreesWithReferenceOn3dEdgeConfigs) { CONVCHECK_EXPECT_AGREES_ON_EDGE_CONFIGS("naive", 3, true); }

TEST(PadOrder, FailsWhenBottomAndLeftPaddingDiffer) {
  EXPECT_TRUE(testing::fails_somewhere("pad_order", "mb1ic1ih1iw1oc1kh1kw1pl1", FillMode::exact));
  EXPECT_FALSE(testing::fails_somewhere("pad_order", "mb1ic2ih5iw5oc2kh3kw3pt1pb1pl1pr1", FillMode::exact));
}

} // namespace convcheck
