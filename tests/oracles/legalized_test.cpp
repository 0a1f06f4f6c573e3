#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "core/numerics/case.hpp"
#include "core/problem/descriptor.hpp"
#include "core/numerics/fill.hpp"
#include "oracles/legalized.hpp"
#include "oracles/naive.hpp"
#include "oracles/support/tensor_ops.hpp"
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

// conv2d picks its loop schedule from the shape (long output rows or long kernel rows); whichever it picks, each
// element must be its (c, r, s)-ordered float sum, bit for bit.
RC_GTEST_PROP(TensorOps, Conv2dIsEachElementsOrderedSumWhateverTheSchedule, ()) {
  const auto groups = *rc::gen::inRange<int64_t>(1, 3), per_group = *rc::gen::inRange<int64_t>(1, 3);
  const auto batch = *rc::gen::inRange<int64_t>(1, 3), out_channels = groups * *rc::gen::inRange<int64_t>(1, 3);
  const auto H = *rc::gen::inRange<int64_t>(1, 9), W = *rc::gen::inRange<int64_t>(1, 12);
  const auto R = *rc::gen::inRange<int64_t>(1, 5), S = *rc::gen::inRange<int64_t>(1, 9);
  const ops::Conv2dParams p{.groups = groups,
                            .stride_height = *rc::gen::inRange<int64_t>(1, 3),
                            .stride_width = *rc::gen::inRange<int64_t>(1, 3),
                            .dilation_height = *rc::gen::inRange<int64_t>(1, 3),
                            .dilation_width = *rc::gen::inRange<int64_t>(1, 3),
                            .pad_top = *rc::gen::inRange<int64_t>(0, 3),
                            .pad_bottom = *rc::gen::inRange<int64_t>(0, 3),
                            .pad_left = *rc::gen::inRange<int64_t>(0, 3),
                            .pad_right = *rc::gen::inRange<int64_t>(0, 3)};
  RC_PRE(H + p.pad_top + p.pad_bottom > p.dilation_height * (R - 1) &&
         W + p.pad_left + p.pad_right > p.dilation_width * (S - 1));
  const Problem config = parse_descriptor("mb1ic1ih1oc1kh1");
  auto normal = [&](Shape shape, Role role) {
    return fill_values(DType::float32, shape, FillMode::normal, *rc::gen::arbitrary<uint64_t>(), 0,
                       info(role).fill_stream, 1);
  };
  const Tensor data = normal({batch, groups * per_group, H, W}, Role::data);
  const Tensor weight = normal({out_channels, per_group, R, S}, Role::weight);
  const Tensor out = ops::conv2d(data, weight, p);
  const int64_t P = out.shape()[2], Q = out.shape()[3];
  const float *x = data.data<float>(), *w = weight.data<float>();
  for (int64_t n = 0; n < batch; ++n)
    for (int64_t k = 0; k < out_channels; ++k)
      for (int64_t y = 0; y < P; ++y)
        for (int64_t q = 0; q < Q; ++q) {
          float sum = 0;
          const int64_t first_channel = k / (out_channels / groups) * per_group;
          for (int64_t c = 0; c < per_group; ++c)
            for (int64_t r = 0; r < R; ++r)
              for (int64_t s = 0; s < S; ++s) {
                const int64_t h = y * p.stride_height - p.pad_top + r * p.dilation_height;
                const int64_t v = q * p.stride_width - p.pad_left + s * p.dilation_width;
                if (h >= 0 && h < H && v >= 0 && v < W)
                  sum += x[((n * groups * per_group + first_channel + c) * H + h) * W + v] *
                         w[((k * per_group + c) * R + r) * S + s];
              }
          RC_ASSERT(out.data<float>()[((n * out_channels + k) * P + y) * Q + q] == sum);
        }
}

TEST(TensorOps, Conv2dRefusesAnEmptyOutput) {
  EXPECT_THROW(ops::conv2d(iota({1, 1, 2, 2}), iota({1, 1, 3, 3}), {}), std::runtime_error);
}

TEST(Legalized, AgreesWithReferenceOnEdgeConfigs) { CONVCHECK_EXPECT_AGREES_ON_EDGE_CONFIGS("legalized"); }

// Why legalized_grad_weight regroups the data channels: TVM's formula as written pairs output channel k with
// input channel t*G + g instead of g*C/G + t, which is the same channel only for G = 1 or depthwise.
TEST(Legalized, TvmWgradChannelOrderIsRightOnlyForOneGroupOrDepthwise) {
  EXPECT_TRUE(tvm_channel_order_agrees("mb2ic3ih5oc2kh3sh2"));
  EXPECT_TRUE(tvm_channel_order_agrees("g4mb2ic4ih6iw5oc8kh3kw3pt1pb1pl1pr1"));
  EXPECT_FALSE(tvm_channel_order_agrees("g2mb1ic4ih3oc2kh2"));
}

TEST(TvmWgradNoswap, FailsWhenStrideAndDilationDiffer) {
  EXPECT_TRUE(testing::fails_somewhere("tvm_wgrad_noswap", "mb1ic2ih5oc2kh2sh2", FillMode::exact));
  EXPECT_TRUE(testing::fails_somewhere("tvm_wgrad_noswap", "mb1ic2ih7oc2kh2dlh3dlw3", FillMode::exact));
  EXPECT_FALSE(testing::fails_somewhere("tvm_wgrad_noswap", "mb2ic2ih7oc2kh3sh2sw2dlh2dlw2pt1", FillMode::exact));
}

TEST(TvmWgradNoslice, FailsWhenTheStrideLeavesRowsUnused) {
  EXPECT_TRUE(testing::fails_somewhere("tvm_wgrad_noslice", "mb1ic1ih2iw1oc1kh1sh2", FillMode::exact));
  EXPECT_FALSE(testing::fails_somewhere("tvm_wgrad_noslice", "mb2ic2ih6oc3kh3sh1pt1pb1", FillMode::exact));
  EXPECT_FALSE(testing::fails_somewhere("tvm_wgrad_noslice", "mb1ic2ih7oc2kh3sh2", FillMode::exact));
}

TEST(TransposeOihw, FailsWhenBothChannelsPerGroupExceedOne) {
  EXPECT_TRUE(testing::fails_somewhere("transpose_oihw", "mb1ic2ih3oc2kh2", FillMode::exact));
  EXPECT_TRUE(testing::fails_somewhere("transpose_oihw", "g3mb2ic6ih5iw7oc9kh3kw2sh2pt1pl1", FillMode::exact));
  EXPECT_FALSE(testing::fails_somewhere("transpose_oihw", "g4mb2ic4ih6iw5oc4kh3kw3pt1pb1pl1pr1", FillMode::exact));
  EXPECT_FALSE(testing::fails_somewhere("transpose_oihw", "mb2ic3ih4oc1kh2", FillMode::exact));
}

TEST(GroupInterleave, FailsWhenGroupsHaveSeveralInputChannels) {
  EXPECT_TRUE(testing::fails_somewhere("group_interleave", "g2mb1ic4ih3oc2kh2", FillMode::exact));
  EXPECT_FALSE(testing::fails_somewhere("group_interleave", "g3mb2ic3ih4oc6kh2", FillMode::exact));
  EXPECT_FALSE(testing::fails_somewhere("group_interleave", "mb2ic4ih4oc3kh2", FillMode::exact));
}

} // namespace convcheck
