#include <gtest/gtest.h>

#include "tests/oracles/edge_configs.hpp"

namespace convcheck {

TEST(Naive, AgreesWithReferenceOnEdgeConfigs) { CONVCHECK_EXPECT_AGREES_ON_EDGE_CONFIGS("naive"); }
TEST(Naive, AgreesWithReferenceOnEdgeConfigsWithCrops) { CONVCHECK_EXPECT_AGREES_ON_EDGE_CONFIGS("naive", 2, true); }
TEST(Naive, AgreesWithReferenceOn1dEdgeConfigs) { CONVCHECK_EXPECT_AGREES_ON_EDGE_CONFIGS("naive", 1, true); }
TEST(Naive, AgreesWithReferenceOn3dEdgeConfigs) { CONVCHECK_EXPECT_AGREES_ON_EDGE_CONFIGS("naive", 3, true); }
TEST(Naive, AgreesWithReferenceOnDeconvEdgeConfigsOfEveryRank) {
  for (int64_t ndims = 1; ndims <= 3; ++ndims) CONVCHECK_EXPECT_AGREES_ON_DECONV_EDGE_CONFIGS("naive", ndims, true);
}

// The injected deconv bugs show on their smallest triggers and not where they are invisible.
TEST(DeconvBugs, FailOnlyWhereTheyShow) {
  EXPECT_TRUE(testing::fails_somewhere("deconv_outpad_zero", "mb1ic1iw2oc1kw2sw2pr1opw1_deconv", FillMode::exact));
  EXPECT_FALSE(testing::fails_somewhere("deconv_outpad_zero", "mb1ic1iw2oc1kw2sw2opw1_deconv", FillMode::exact));
  EXPECT_TRUE(testing::fails_somewhere("deconv_weight_oihw", "mb1ic2iw2oc2kw1_deconv", FillMode::exact));
  EXPECT_FALSE(testing::fails_somewhere("deconv_weight_oihw", "g2mb1ic2iw3oc4kw2_deconv", FillMode::exact));
  EXPECT_TRUE(testing::fails_somewhere("deconv_groups_ignored", "g2mb1ic2iw2oc2kw1_deconv", FillMode::exact));
  EXPECT_FALSE(testing::fails_somewhere("deconv_groups_ignored", "mb1ic3iw4oc2kw2sw2_deconv", FillMode::exact));
}

TEST(PadOrder, FailsWhenBottomAndLeftPaddingDiffer) {
  EXPECT_TRUE(testing::fails_somewhere("pad_order", "mb1ic1ih1iw1oc1kh1kw1pl1", FillMode::exact));
  EXPECT_FALSE(testing::fails_somewhere("pad_order", "mb1ic2ih5iw5oc2kh3kw3pt1pb1pl1pr1", FillMode::exact));
}

TEST(DepthStrideFromHeight, FailsOnlyWhenDepthAndHeightStridesDiffer) {
  EXPECT_TRUE(testing::fails_somewhere("depth_stride_from_height", "mb1ic1id2ih1iw1oc1kd1kh1kw1sd2", FillMode::exact));
  EXPECT_TRUE(testing::fails_somewhere("depth_stride_from_height", "mb1ic2id7ih7iw3oc2kd2kh2kw2sd3sh2", FillMode::normal));
  EXPECT_FALSE(testing::fails_somewhere("depth_stride_from_height", "mb1ic2id7ih7iw3oc2kd2kh2kw2sd2sh2", FillMode::exact));
}

TEST(CropWrongEnd, FailsOnlyWithNegativePadding) {
  EXPECT_TRUE(testing::fails_somewhere("crop_wrong_end", "mb1ic1iw2oc1kw1pl-1", FillMode::exact));
  EXPECT_TRUE(testing::fails_somewhere("crop_wrong_end", "mb1ic2ih5iw4oc2kh2kw2pt1pb-2", FillMode::normal));
  EXPECT_FALSE(testing::fails_somewhere("crop_wrong_end", "mb1ic2ih5iw4oc2kh2kw2pt1pb2pl1", FillMode::exact));
}

} // namespace convcheck
