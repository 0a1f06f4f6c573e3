#include <array>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "core/numerics/case.hpp"
#include "core/problem/descriptor.hpp"
#include "core/numerics/fill.hpp"
#include "oracles/loops/legalized.hpp"
#include "oracles/loops/naive.hpp"
#include "oracles/loops/tensor_ops.hpp"
#include "tests/oracles/edge_configs.hpp"

namespace convcheck {

namespace {

Tensor iota(Shape shape) {
  Tensor tensor(DType::float64, std::move(shape));
  for (int64_t i = 0; i < tensor.size(); ++i) tensor.data<double>()[i] = static_cast<double>(i + 1);
  return tensor;
}

std::vector<double> values(const Tensor &tensor) {
  std::vector<double> result;
  for (int64_t i = 0; i < tensor.size(); ++i) result.push_back(tensor.get(i));
  return result;
}

// grad_weight with TVM's literal channel order equals the naive loops (exact fill: bit for bit)?
bool tvm_channel_order_agrees(const std::string &descriptor) {
  const Problem config = parse_descriptor(descriptor);
  const Case conv_case = make_case(config, FillMode::exact, 7, 3);
  const Tensor tvm = legalized_grad_weight(conv_case, {.wgrad_tvm_channel_order = true});
  return values(tvm) == values(naive_result(config, conv_case, Direction::grad_weight));
}

} // namespace

TEST(TensorOps, PadCropsWithNegativeAmountsThroughOneIndexMap) {
  // Cropping 5 from the top of 4 rows while padding 2 at the bottom leaves one row, which lies past the input.
  const Tensor column = iota({4});
  EXPECT_EQ(values(ops::pad(column, {-5}, {2})), std::vector<double>{0});
  EXPECT_EQ(values(ops::pad(column, {1}, {-2})), (std::vector<double>{0, 1, 2}));
}

TEST(TensorOps, InsertZerosTileSliceFlipAndSum) {
  EXPECT_EQ(values(ops::insert_zeros(iota({3}), {3})), (std::vector<double>{1, 0, 0, 2, 0, 0, 3}));
  EXPECT_EQ(values(ops::tile(iota({1, 2}), {1, 3})), (std::vector<double>{1, 2, 1, 2, 1, 2}));
  EXPECT_EQ(values(ops::strided_slice(iota({2, 5}), {0, 1}, {9, 9}, {1, 2})), (std::vector<double>{2, 4, 7, 9}));
  EXPECT_EQ(values(ops::flip(iota({2, 2}), {1})), (std::vector<double>{2, 1, 4, 3}));
  EXPECT_EQ(values(ops::sum_axis(iota({2, 3}), 0)), (std::vector<double>{5, 7, 9}));
  std::vector<Tensor> parts;
  parts.push_back(iota({2, 1}));
  parts.push_back(iota({2, 2}));
  EXPECT_EQ(values(ops::concatenate(parts, 1)), (std::vector<double>{1, 1, 2, 2, 3, 4}));
}

// The (t, c, r, s)-ordered float sum of output element (n, k, z, y, x) of ops::conv, from its definition; every
// extent and axis lifted to three spatial axes (unit outer axes for a lower rank).
struct LiftedConv {
  int64_t groups, channels, out_channels;
  std::array<int64_t, 3> in, taps;
  std::array<ops::ConvAxis, 3> axes;
  float sum(const float *x, const float *w, int64_t n, int64_t k, std::array<int64_t, 3> o) const {
    const int64_t per_group = channels / groups, first_channel = k / (out_channels / groups) * per_group;
    float sum = 0;
    for (int64_t t = 0; t < taps[0]; ++t)
      for (int64_t c = 0; c < per_group; ++c)
        for (int64_t r = 0; r < taps[1]; ++r)
          for (int64_t s = 0; s < taps[2]; ++s) {
            const std::array<int64_t, 3> tap{t, r, s};
            std::array<int64_t, 3> at{};
            bool inside = true;
            for (size_t a = 0; a < 3; ++a) {
              at[a] = o[a] * axes[a].stride - axes[a].pad_begin + tap[a] * axes[a].dilation;
              inside = inside && at[a] >= 0 && at[a] < in[a];
            }
            if (inside)
              sum += x[(((n * channels + first_channel + c) * in[0] + at[0]) * in[1] + at[1]) * in[2] + at[2]] *
                     w[(((k * per_group + c) * taps[0] + t) * taps[1] + r) * taps[2] + s];
          }
    return sum;
  }
};

// conv picks its loop schedule from the shape (long output rows or long kernel rows); whichever it picks, and in
// every rank, each element must be its (t, c, r, s)-ordered float sum, bit for bit.
RC_GTEST_PROP(TensorOps, ConvIsEachElementsOrderedSumWhateverTheScheduleAndRank, ()) {
  const auto spatial = *rc::gen::inRange<size_t>(1, 4);
  const auto groups = *rc::gen::inRange<int64_t>(1, 3), per_group = *rc::gen::inRange<int64_t>(1, 3);
  const auto batch = *rc::gen::inRange<int64_t>(1, 3), out_channels = groups * *rc::gen::inRange<int64_t>(1, 3);
  LiftedConv conv{groups, groups * per_group, out_channels, {1, 1, 1}, {1, 1, 1}, {}};
  ops::ConvParams p{.groups = groups, .axes = {}};
  Shape data_shape{batch, groups * per_group}, weight_shape{out_channels, per_group};
  for (size_t a = 3 - spatial; a < 3; ++a) {
    const bool long_axis = a == 2; // rows long enough to reach both schedules
    conv.in[a] = *rc::gen::inRange<int64_t>(1, long_axis ? 12 : 7);
    conv.taps[a] = *rc::gen::inRange<int64_t>(1, long_axis ? 9 : 4);
    conv.axes[a] = {.stride = *rc::gen::inRange<int64_t>(1, 3),
                    .dilation = *rc::gen::inRange<int64_t>(1, 3),
                    .pad_begin = *rc::gen::inRange<int64_t>(0, 3),
                    .pad_end = *rc::gen::inRange<int64_t>(0, 3)};
    RC_PRE(conv.in[a] + conv.axes[a].pad_begin + conv.axes[a].pad_end > conv.axes[a].dilation * (conv.taps[a] - 1));
    p.axes.push_back(conv.axes[a]);
    data_shape.push_back(conv.in[a]);
    weight_shape.push_back(conv.taps[a]);
  }
  auto normal = [&](Shape shape, Role role) {
    return fill_values(DType::float32, shape, FillMode::normal, *rc::gen::arbitrary<uint64_t>(), 0,
                       info(role).fill_stream, 1);
  };
  const Tensor data = normal(data_shape, Role::data);
  const Tensor weight = normal(weight_shape, Role::weight);
  const Tensor out = ops::conv(data, weight, p);
  RC_ASSERT(out.shape().size() == 2 + spatial);
  std::array<int64_t, 3> extent{1, 1, 1};
  for (size_t a = 0; a < spatial; ++a) extent[3 - spatial + a] = out.shape()[2 + a];
  const float *result = out.data<float>();
  for (int64_t n = 0; n < batch; ++n)
    for (int64_t k = 0; k < out_channels; ++k)
      for (int64_t z = 0; z < extent[0]; ++z)
        for (int64_t y = 0; y < extent[1]; ++y)
          for (int64_t x = 0; x < extent[2]; ++x)
            RC_ASSERT(*result++ == conv.sum(data.data<float>(), weight.data<float>(), n, k, {z, y, x}));
}

TEST(TensorOps, ConvRefusesAnEmptyOutputAndNegativePadding) {
  EXPECT_THROW(ops::conv(iota({1, 1, 2, 2}), iota({1, 1, 3, 3}), {}), std::runtime_error);
  EXPECT_THROW(ops::conv(iota({1, 1, 2}), iota({1, 1, 3}), {}), std::runtime_error);
  EXPECT_THROW(ops::conv(iota({1, 1, 4}), iota({1, 1, 1}), {.groups = 1, .axes = {{.pad_begin = -1}}}),
               std::runtime_error);
}

TEST(Legalized, AgreesWithReferenceOnEdgeConfigs) { CONVCHECK_EXPECT_AGREES_ON_EDGE_CONFIGS("legalized"); }
TEST(Legalized, AgreesWithReferenceOnRank1EdgeConfigsWithCrops) {
  CONVCHECK_EXPECT_AGREES_ON_EDGE_CONFIGS("legalized", 1, true);
}
TEST(Legalized, AgreesWithReferenceOnRank2EdgeConfigsWithCrops) {
  CONVCHECK_EXPECT_AGREES_ON_EDGE_CONFIGS("legalized", 2, true);
}
TEST(Legalized, AgreesWithReferenceOnRank3EdgeConfigsWithCrops) {
  CONVCHECK_EXPECT_AGREES_ON_EDGE_CONFIGS("legalized", 3, true);
}
TEST(Legalized, AgreesWithReferenceOnDeconvEdgeConfigsOfEveryRank) {
  for (int64_t ndims = 1; ndims <= 3; ++ndims) CONVCHECK_EXPECT_AGREES_ON_DECONV_EDGE_CONFIGS("legalized", ndims, true);
}

// A crop past the input from one side, padding from the other: out = (4 - 5 + 2 - 1) / 1 + 1 = 1 position, which
// reads nothing. Every direction must still come out at the canonical shape (all zeros).
TEST(Legalized, AgreesWhenACropReachesPastTheInput) {
  for (auto fill : {FillMode::exact, FillMode::normal}) {
    EXPECT_EQ(testing::disagreements("legalized", "mb1ic2iw4oc2kw1pl-5pr2", fill), std::vector<std::string>{});
    EXPECT_EQ(testing::disagreements("legalized", "mb2ic2ih3iw4oc3kh2kw1sh2pt1pb1pl-5pr2", fill),
              std::vector<std::string>{});
  }
}

// Why legalized_grad_weight regroups the data channels: TVM's formula as written pairs output channel k with
// input channel t*G + g instead of g*C/G + t, which is the same channel only for G = 1 or depthwise.
TEST(Legalized, TvmWgradChannelOrderIsRightOnlyForOneGroupOrDepthwise) {
  EXPECT_TRUE(tvm_channel_order_agrees("mb2ic3ih5oc2kh3sh2"));
  EXPECT_TRUE(tvm_channel_order_agrees("g4mb2ic4ih6iw5oc8kh3kw3pt1pb1pl1pr1"));
  EXPECT_FALSE(tvm_channel_order_agrees("g2mb1ic4ih3oc2kh2"));
  EXPECT_TRUE(tvm_channel_order_agrees("g4mb2ic4id3ih4iw5oc8kd2kh3kw3pt1pl-1"));
  EXPECT_FALSE(tvm_channel_order_agrees("g2mb1ic4iw3oc2kw2"));
  EXPECT_FALSE(tvm_channel_order_agrees("g2mb1ic4id3ih2iw2oc2kd2kh1kw1pfr-1"));
}

TEST(TvmWgradNoswap, FailsWhenStrideAndDilationDiffer) {
  EXPECT_TRUE(testing::fails_somewhere("tvm_wgrad_noswap", "mb1ic2ih5oc2kh2sh2", FillMode::exact));
  EXPECT_TRUE(testing::fails_somewhere("tvm_wgrad_noswap", "mb1ic2ih7oc2kh2dlh3dlw3", FillMode::exact));
  EXPECT_FALSE(testing::fails_somewhere("tvm_wgrad_noswap", "mb2ic2ih7oc2kh3sh2sw2dlh2dlw2pt1", FillMode::exact));
  EXPECT_TRUE(testing::fails_somewhere("tvm_wgrad_noswap", "mb1ic2iw5oc2kw2sw2", FillMode::exact));
  EXPECT_TRUE(testing::fails_somewhere("tvm_wgrad_noswap", "mb1ic2id5ih2iw2oc2kd2kh1kw1sd2", FillMode::exact));
  EXPECT_TRUE(testing::fails_somewhere("tvm_wgrad_noswap", "mb1ic2ih6iw5oc2kh2kw1sh2pt-1", FillMode::exact));
  EXPECT_FALSE(testing::fails_somewhere("tvm_wgrad_noswap", "mb2ic2id5ih4iw6oc2kd2kh2kw2sd2sh2sw2dld2dlh2dlw2pfr-1",
                                        FillMode::exact));
}

TEST(TvmWgradNoslice, FailsWhenTheStrideLeavesRowsUnused) {
  EXPECT_TRUE(testing::fails_somewhere("tvm_wgrad_noslice", "mb1ic1ih2iw1oc1kh1sh2", FillMode::exact));
  EXPECT_FALSE(testing::fails_somewhere("tvm_wgrad_noslice", "mb2ic2ih6oc3kh3sh1pt1pb1", FillMode::exact));
  EXPECT_FALSE(testing::fails_somewhere("tvm_wgrad_noslice", "mb1ic2ih7oc2kh3sh2", FillMode::exact));
  EXPECT_TRUE(testing::fails_somewhere("tvm_wgrad_noslice", "mb1ic1iw2oc1kw1sw2", FillMode::exact));
  EXPECT_TRUE(testing::fails_somewhere("tvm_wgrad_noslice", "mb1ic1id2ih1iw1oc1kd1kh1kw1sd2", FillMode::exact));
  EXPECT_TRUE(testing::fails_somewhere("tvm_wgrad_noslice", "mb1ic1ih5iw1oc1kh1sh2pt-1", FillMode::exact));
  EXPECT_FALSE(testing::fails_somewhere("tvm_wgrad_noslice", "mb1ic2iw7oc2kw3sw2", FillMode::exact));
}

TEST(TransposeOihw, FailsWhenBothChannelsPerGroupExceedOne) {
  EXPECT_TRUE(testing::fails_somewhere("transpose_oihw", "mb1ic2ih3oc2kh2", FillMode::exact));
  EXPECT_TRUE(testing::fails_somewhere("transpose_oihw", "g3mb2ic6ih5iw7oc9kh3kw2sh2pt1pl1", FillMode::exact));
  EXPECT_FALSE(testing::fails_somewhere("transpose_oihw", "g4mb2ic4ih6iw5oc4kh3kw3pt1pb1pl1pr1", FillMode::exact));
  EXPECT_FALSE(testing::fails_somewhere("transpose_oihw", "mb2ic3ih4oc1kh2", FillMode::exact));
  EXPECT_TRUE(testing::fails_somewhere("transpose_oihw", "mb1ic2iw3oc2kw2", FillMode::exact));
  EXPECT_TRUE(testing::fails_somewhere("transpose_oihw", "mb1ic2id3ih2iw2oc2kd2kh1kw1", FillMode::exact));
  EXPECT_TRUE(testing::fails_somewhere("transpose_oihw", "mb1ic2ih4iw3oc2kh2kw2pt-1pr-1", FillMode::exact));
  EXPECT_FALSE(
      testing::fails_somewhere("transpose_oihw", "g3mb1ic3id3ih4iw4oc3kd3kh3kw3pfr1pbk1pt-1", FillMode::exact));
}

TEST(GroupInterleave, FailsWhenGroupsHaveSeveralInputChannels) {
  EXPECT_TRUE(testing::fails_somewhere("group_interleave", "g2mb1ic4ih3oc2kh2", FillMode::exact));
  EXPECT_FALSE(testing::fails_somewhere("group_interleave", "g3mb2ic3ih4oc6kh2", FillMode::exact));
  EXPECT_FALSE(testing::fails_somewhere("group_interleave", "mb2ic4ih4oc3kh2", FillMode::exact));
  EXPECT_TRUE(testing::fails_somewhere("group_interleave", "g2mb1ic4iw3oc2kw2", FillMode::exact));
  EXPECT_TRUE(testing::fails_somewhere("group_interleave", "g2mb1ic4id3ih2iw2oc2kd2kh1kw1", FillMode::exact));
  EXPECT_TRUE(testing::fails_somewhere("group_interleave", "g2mb1ic4ih4iw3oc2kh2kw2pt-1pb-1", FillMode::exact));
  EXPECT_FALSE(testing::fails_somewhere("group_interleave", "g3mb1ic3id3ih3iw3oc6kd2kh2kw2pl-1", FillMode::exact));
}

} // namespace convcheck
