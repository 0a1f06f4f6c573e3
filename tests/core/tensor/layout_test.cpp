#include "core/tensor/layout.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "core/problem/descriptor.hpp"
#include "core/numerics/fill.hpp"

namespace convcheck {
namespace {

RC_GTEST_PROP(Layout, TransformsRoundTrip, ()) {
  const Problem config = parse_descriptor("g2mb2ic4ih3iw5oc6kh2kw3");
  const Tensor data = fill_tensor(config, Role::data, FillMode::normal, 1, 0);
  const Tensor weight = fill_tensor(config, Role::weight, FillMode::normal, 1, 0);
  const auto data_layout = *rc::gen::element(DataLayout::ncx, DataLayout::nxc);
  const auto weight_layout = *rc::gen::element(WeightLayout::oix, WeightLayout::xio, WeightLayout::oxi);
  const Tensor data_back = from_data_layout(to_data_layout(data, data_layout), data_layout);
  const Tensor weight_back = from_weight_layout(to_weight_layout(weight, weight_layout), weight_layout);
  RC_ASSERT(data_back.shape() == data.shape());
  RC_ASSERT(weight_back.shape() == weight.shape());
  for (int64_t i = 0; i < data.size(); ++i) RC_ASSERT(data_back.get(i) == data.get(i));
  for (int64_t i = 0; i < weight.size(); ++i) RC_ASSERT(weight_back.get(i) == weight.get(i));
}

TEST(Layout, ShapesInLayoutFollowTheLayoutTransforms) {
  const Shape nchw{2, 3, 4, 5}, oihw{6, 3, 2, 1};
  EXPECT_EQ(data_shape_in(nchw, DataLayout::nxc), (Shape{2, 4, 5, 3}));
  EXPECT_EQ(data_shape_in(nchw, DataLayout::ncx), nchw);
  EXPECT_EQ(weight_shape_in(oihw, WeightLayout::xio), (Shape{2, 1, 3, 6}));
  EXPECT_EQ(weight_shape_in(oihw, WeightLayout::oxi), (Shape{6, 2, 1, 3}));
  EXPECT_EQ(weight_shape_in(oihw, WeightLayout::oix), oihw);
}

TEST(Layout, ElementsLandWhereTheLayoutSays) {
  const Problem config = parse_descriptor("g2mb2ic4ih3iw5oc6kh2kw3");
  const Tensor data = fill_tensor(config, Role::data, FillMode::normal, 1, 0);
  const Tensor weight = fill_tensor(config, Role::weight, FillMode::normal, 1, 0);
  const int64_t N = 2, C = 4, H = 3, W = 5, K = 6, I = 2, R = 2, S = 3;
  const Tensor nhwc = to_data_layout(data, DataLayout::nxc);
  EXPECT_EQ(nhwc.shape(), (Shape{N, H, W, C}));
  const int64_t n = 1, c = 2, h = 1, w = 4;
  EXPECT_EQ(nhwc.get(((n * H + h) * W + w) * C + c), data.get(((n * C + c) * H + h) * W + w));
  const int64_t k = 5, i = 1, r = 1, s = 2;
  const double canonical = weight.get(((k * I + i) * R + r) * S + s);
  const Tensor hwio = to_weight_layout(weight, WeightLayout::xio);
  EXPECT_EQ(hwio.shape(), (Shape{R, S, I, K}));
  EXPECT_EQ(hwio.get(((r * S + s) * I + i) * K + k), canonical);
  const Tensor ohwi = to_weight_layout(weight, WeightLayout::oxi);
  EXPECT_EQ(ohwi.shape(), (Shape{K, R, S, I}));
  EXPECT_EQ(ohwi.get(((k * R + r) * S + s) * I + i), canonical);
}

} // namespace
} // namespace convcheck
