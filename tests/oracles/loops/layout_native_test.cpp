#include "oracles/loops/layout_native.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "core/problem/generators.hpp"
#include "core/tensor/layout.hpp"
#include "core/run/strategy.hpp"
#include "oracles/loops/naive.hpp"
#include "tests/oracles/edge_configs.hpp"

namespace convcheck {
namespace {

bool same_values(const Tensor &a, const Tensor &b) {
  if (a.shape() != b.shape()) return false;
  for (int64_t i = 0; i < a.size(); ++i)
    if (a.get(i) != b.get(i)) return false;
  return true;
}

TEST(LayoutNative, NhwcHwioAgreesWithReferenceOnEdgeConfigs) { CONVCHECK_EXPECT_AGREES_ON_EDGE_CONFIGS("nhwc_hwio"); }
TEST(LayoutNative, NhwcOhwiAgreesWithReferenceOnEdgeConfigs) { CONVCHECK_EXPECT_AGREES_ON_EDGE_CONFIGS("nhwc_ohwi"); }
TEST(LayoutNative, NchwHwioAgreesWithReferenceOnEdgeConfigs) { CONVCHECK_EXPECT_AGREES_ON_EDGE_CONFIGS("nchw_hwio"); }
TEST(LayoutNative, CaseLayoutAgreesWithReferenceOnEdgeConfigs) { CONVCHECK_EXPECT_AGREES_ON_EDGE_CONFIGS("layout"); }
TEST(LayoutNative, EveryLayoutStrategyAgreesOnDeconvEdgeConfigsOfEveryRank) {
  for (const char *strategy : {"nhwc_hwio", "nhwc_ohwi", "nchw_hwio", "layout"})
    for (int64_t ndims = 1; ndims <= 3; ++ndims) CONVCHECK_EXPECT_AGREES_ON_DECONV_EDGE_CONFIGS(strategy, ndims, true);
}

// Every rank, crops included: the strategies keep their 2-D names and run the same kind of layout in each rank.
class LayoutNativeRanks : public ::testing::TestWithParam<std::string> {};

TEST_P(LayoutNativeRanks, AgreesWithReferenceOnRank1EdgeConfigsWithCrops) {
  CONVCHECK_EXPECT_AGREES_ON_EDGE_CONFIGS(GetParam(), 1, true);
}
TEST_P(LayoutNativeRanks, AgreesWithReferenceOnRank2EdgeConfigsWithCrops) {
  CONVCHECK_EXPECT_AGREES_ON_EDGE_CONFIGS(GetParam(), 2, true);
}
TEST_P(LayoutNativeRanks, AgreesWithReferenceOnRank3EdgeConfigsWithCrops) {
  CONVCHECK_EXPECT_AGREES_ON_EDGE_CONFIGS(GetParam(), 3, true);
}

INSTANTIATE_TEST_SUITE_P(EveryLayoutStrategy, LayoutNativeRanks,
                         ::testing::Values("nhwc_hwio", "nhwc_ohwi", "nchw_hwio", "layout"),
                         [](const auto &info) { return info.param; });

// The loops really compute in the held layout: before the transform back, the result is the naive result
// transformed into that layout, bit for bit (exact fill makes every summation order exact).
RC_GTEST_PROP(LayoutNative, HeldResultIsTheNaiveResultInTheHeldLayout, ()) {
  const Problem config = *convs(); // the held loops are the conv's (a deconv runs them as its equivalent conv)
  const auto data_layout = *rc::gen::element(DataLayout::ncx, DataLayout::nxc);
  const auto weight_layout = *rc::gen::element(WeightLayout::oix, WeightLayout::xio, WeightLayout::oxi);
  const Case c = make_case(config, FillMode::exact, 11, 0);
  const HeldInputs held{data_layout, weight_layout, to_data_layout(c[Role::data], data_layout),
                        to_weight_layout(c[Role::weight], weight_layout), to_data_layout(c[Role::grad_output], data_layout)};
  for (Direction direction : all_directions) {
    const Tensor naive = naive_result(config, c, direction);
    const Tensor expected = direction == Direction::grad_weight ? to_weight_layout(naive, weight_layout)
                                                                : to_data_layout(naive, data_layout);
    RC_ASSERT(same_values(held_layout_result(config, held, direction), expected));
  }
}

TEST(NhwcWeightUntransformed, FailsWhenTheWeightPermutationMovesElements) {
  // Smallest: a 2x2 weight read transposed ([K, C] as [C, K]); then the kernel against the output channels.
  EXPECT_TRUE(testing::fails_somewhere("nhwc_weight_untransformed", "mb1ic2ih1oc2kh1", FillMode::exact));
  EXPECT_TRUE(testing::fails_somewhere("nhwc_weight_untransformed", "mb1ic1ih2iw1oc2kh2kw1", FillMode::exact));
  EXPECT_TRUE(testing::fails_somewhere("nhwc_weight_untransformed", "g4mb2ic4ih6iw5oc4kh3kw3pt1pb1pl1pr1",
                                       FillMode::normal));
}

TEST(NhwcWeightUntransformed, FailsInEveryRankAndWithCrops) {
  EXPECT_TRUE(testing::fails_somewhere("nhwc_weight_untransformed", "mb1ic2iw1oc2kw1", FillMode::exact));
  EXPECT_TRUE(testing::fails_somewhere("nhwc_weight_untransformed", "mb1ic1iw3oc2kw2", FillMode::exact));
  EXPECT_TRUE(testing::fails_somewhere("nhwc_weight_untransformed", "mb1ic1id2ih1iw1oc2kd2kh1kw1", FillMode::exact));
  EXPECT_TRUE(testing::fails_somewhere("nhwc_weight_untransformed", "mb1ic2id3ih2iw2oc2kd2kh1kw1pfr-1pbk1",
                                       FillMode::normal));
  EXPECT_TRUE(testing::fails_somewhere("nhwc_weight_untransformed", "mb2ic3ih7iw6oc2kh3kw2pt-1pb2pl-2pr-1",
                                       FillMode::normal));
}

TEST(NhwcWeightUntransformed, PassesWhenAtMostOneOfKAndCPerGroupAndRSExceedsOne) {
  EXPECT_FALSE(testing::fails_somewhere("nhwc_weight_untransformed", "mb2ic1ih5iw6oc1kh3kw2pt1", FillMode::exact));
  EXPECT_FALSE(testing::fails_somewhere("nhwc_weight_untransformed", "g4mb2ic4ih6iw5oc4kh1", FillMode::exact));
  EXPECT_FALSE(testing::fails_somewhere("nhwc_weight_untransformed", "mb2ic5ih3oc1kh1sh2", FillMode::normal));
  EXPECT_FALSE(testing::fails_somewhere("nhwc_weight_untransformed", "mb2ic1iw7oc1kw3pl-1", FillMode::exact));
  EXPECT_FALSE(testing::fails_somewhere("nhwc_weight_untransformed", "mb1ic1id4ih3iw5oc1kd2kh2kw3", FillMode::exact));
}

// The converse, as a property: with at most one of K, C/G and the kernel volume above 1 the OI... and XIO flat
// orders coincide in every rank, so the buggy strategy returns exactly what the correct NHWC/HWIO strategy returns.
RC_GTEST_PROP(NhwcWeightUntransformed, MatchesNhwcHwioWhenThePermutationIsTheIdentity, ()) {
  Problem config = *convs(); // the injected bug is a conv's
  auto unit_kernel = [&config] {
    for (SpatialAxis &axis : config.axes) axis.kernel = 1;
  };
  switch (*rc::gen::inRange(0, 3)) {
  case 0: // only K: one input channel per group, unit kernel
    config.in_channels = config.groups;
    unit_kernel();
    break;
  case 1: // only C/G: one output channel (so one group), unit kernel
    config.in_channels = config.in_channels_per_group();
    config.groups = config.out_channels = 1;
    unit_kernel();
    break;
  default: // only the kernel volume: one input and one output channel
    config.groups = config.in_channels = config.out_channels = 1;
  }
  validate(config);
  const Case c = make_case(config, FillMode::normal, 5, 1);
  const Strategy *buggy = find_strategy("nhwc_weight_untransformed");
  RC_ASSERT(buggy != nullptr);
  for (Direction direction : all_directions)
    RC_ASSERT(same_values(buggy->run(c, direction),
                          layout_converted_result(c, direction, DataLayout::nxc, WeightLayout::xio)));
}

} // namespace
} // namespace convcheck
