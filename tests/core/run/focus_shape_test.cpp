// `--focus NAME` draws only the kernel sizes, strides and dilations NAME declares (core/run/focus.hpp): a Winograd
// implementation declaring kernel 3, stride 1, dilation 1 is offered only those, by construction, with the input
// grown where the kernel would not fit, and the draw is still a pure function of (seed, case index).

#include <set>

#include <gtest/gtest.h>

#include "core/problem/descriptor.hpp"
#include "core/run/focus.hpp"

namespace convcheck {

namespace {

Support winograd_2d() {
  return {.ops = {Op::conv}, .ranks = {2}, .dtypes = {DType::float32}, .data_layouts = every_data_layout,
          .weight_layouts = every_weight_layout, .kernels = {3}, .strides = {1}, .dilations = {1}};
}

TEST(FocusShape, DrawsOnlyTheDeclaredKernelsStridesAndDilations) {
  const Support support = winograd_2d();
  int64_t rejected = 0;
  for (uint64_t index = 0; index < 300; ++index) {
    const FocusedDraw draw = focused_problem(1, index, support, "wino");
    rejected += draw.rejected;
    const Problem &p = draw.problem;
    EXPECT_EQ(support.refusal(p), "") << format_descriptor(p);
    EXPECT_TRUE(is_valid(p)) << format_descriptor(p);
    for (int64_t axis = p.first_axis(); axis < max_ndims; ++axis) {
      const SpatialAxis &a = p.axes[static_cast<size_t>(axis)];
      EXPECT_EQ(a.kernel, 3) << format_descriptor(p);
      EXPECT_EQ(a.stride, 1) << format_descriptor(p);
      EXPECT_EQ(a.dilation, 1) << format_descriptor(p);
      EXPECT_GE(a.out(), 1) << format_descriptor(p);
    }
    EXPECT_EQ(focused_problem(1, index, support, "wino").problem, p); // the same draw again
  }
  // Only the rank is left to rejection (a 2-D-only support rejects the 1-D and 3-D draws): about two in three.
  EXPECT_LT(static_cast<double>(rejected) / static_cast<double>(rejected + 300), 0.8);
}

TEST(FocusShape, ListsOfSeveralSpreadOverTheirValues) {
  Support support = winograd_2d();
  support.ranks = {1, 2, 3};
  support.kernels = {2, 3};
  std::set<int64_t> kernels;
  for (uint64_t index = 0; index < 100; ++index) {
    const Problem p = focused_problem(5, index, support, "two").problem;
    for (int64_t axis = p.first_axis(); axis < max_ndims; ++axis) kernels.insert(p.axes[static_cast<size_t>(axis)].kernel);
  }
  EXPECT_EQ(kernels, (std::set<int64_t>{2, 3}));
}

} // namespace

} // namespace convcheck
