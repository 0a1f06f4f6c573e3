// The deconv reference (the conv reference with the roles exchanged, core/problem/op.hpp) against the deconv's own
// definition, written independently as the scatter PyTorch documents: every input element times every tap adds
// into the output element it lands on,
//
//   output[n, g*K/G + k, i*stride - pad_begin + t*dilation] += data[n, c, i] * weight[c, k, t]   (c in group g)
//
// with the data gradient and the weight gradient summing the same products. In exact fill every sum is an exact
// integer in double, whatever the order, so the reference must agree bit for bit.

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "core/numerics/case.hpp"
#include "core/numerics/reference.hpp"
#include "core/tensor/element.hpp"
#include "core/problem/descriptor.hpp"
#include "core/problem/generators.hpp"
#include "core/problem/op.hpp"

namespace convcheck {
namespace {

using Point = std::array<int64_t, 3>;

struct Scattered {
  std::vector<double> output, grad_data, grad_weight;
};

Scattered scatter(const Case &c) {
  const Problem &p = c.problem;
  Point in{}, out{}, kernel{};
  for (size_t a = 0; a < 3; ++a) in[a] = p.axes[a].in, out[a] = p.out_size(static_cast<int64_t>(a)), kernel[a] = p.axes[a].kernel;
  const auto volume = [](const Point &e) { return e[0] * e[1] * e[2]; };
  const auto flat = [](const Point &e, const Point &at) { return (at[0] * e[1] + at[1]) * e[2] + at[2]; };
  const int64_t C = p.in_channels, K = p.out_channels, cg = C / p.groups, kg = K / p.groups;
  Scattered s;
  s.output.assign(static_cast<size_t>(p.batch * K * volume(out)), 0.0);
  s.grad_data.assign(static_cast<size_t>(p.batch * C * volume(in)), 0.0);
  s.grad_weight.assign(static_cast<size_t>(C * kg * volume(kernel)), 0.0);
  for (int64_t n = 0; n < p.batch; ++n)
    for (int64_t ci = 0; ci < C; ++ci)
      for (int64_t k = 0; k < kg; ++k) {
        const int64_t co = (ci / cg) * kg + k;
        Point i{};
        for (i[0] = 0; i[0] < in[0]; ++i[0])
          for (i[1] = 0; i[1] < in[1]; ++i[1])
            for (i[2] = 0; i[2] < in[2]; ++i[2]) {
              Point t{};
              for (t[0] = 0; t[0] < kernel[0]; ++t[0])
                for (t[1] = 0; t[1] < kernel[1]; ++t[1])
                  for (t[2] = 0; t[2] < kernel[2]; ++t[2]) {
                    Point o{};
                    bool inside = true;
                    for (size_t a = 0; a < 3; ++a) {
                      const SpatialAxis &axis = p.axes[a];
                      o[a] = i[a] * axis.stride - axis.pad_begin + t[a] * axis.dilation;
                      inside = inside && o[a] >= 0 && o[a] < out[a];
                    }
                    if (!inside) continue;
                    const int64_t x = (n * C + ci) * volume(in) + flat(in, i);
                    const int64_t w = (ci * kg + k) * volume(kernel) + flat(kernel, t);
                    const int64_t y = (n * K + co) * volume(out) + flat(out, o);
                    s.output[static_cast<size_t>(y)] += c[Role::data].get(x) * c[Role::weight].get(w);
                    s.grad_data[static_cast<size_t>(x)] += c[Role::grad_output].get(y) * c[Role::weight].get(w);
                    s.grad_weight[static_cast<size_t>(w)] += c[Role::data].get(x) * c[Role::grad_output].get(y);
                  }
            }
      }
  return s;
}

// Bit for bit, for every direction.
void expect_reference_is_the_scatter(const Problem &problem, uint64_t index) {
  const Case c = make_case(problem, FillMode::exact, 7, index);
  const Reference reference = compute_reference(c);
  const Scattered s = scatter(c);
  const std::array<std::pair<Direction, const std::vector<double> *>, 3> expected{
      {{Direction::output, &s.output}, {Direction::grad_data, &s.grad_data}, {Direction::grad_weight, &s.grad_weight}}};
  for (const auto &[direction, values] : expected) {
    const Tensor &got = reference[direction].expected;
    ASSERT_EQ(got.shape(), result_shape(problem, direction)) << to_string(direction);
    ASSERT_EQ(got.size(), static_cast<int64_t>(values->size())) << to_string(direction);
    // At a tie of the exact-sum rule the reference is the even neighbour, its bound 0 (ErrorBound::tie_rounding).
    const DType result = result_dtype(problem, direction);
    for (int64_t e = 0; e < got.size(); ++e) {
      const double value = (*values)[static_cast<size_t>(e)], even = rounded_to(result, value);
      const bool tie = even != value && rounded_to(result, 2 * value - even) == 2 * value - even &&
                       reference[direction].bound[static_cast<size_t>(e)] == 0;
      ASSERT_EQ(got.get(e), tie ? even : value)
          << format_descriptor(problem) << " " << to_string(direction) << " element " << e;
    }
  }
}

// The corners: output padding (below stride, and below dilation when dilation is larger), stride past the kernel,
// dilation with stride, groups and depthwise, asymmetric and negative padding (an output extended at that end:
// rows no tap reaches, zero), and every rank.
TEST(DeconvReference, IsTheScatterDefinitionBitForBitOnCorners) {
  for (const char *descriptor : {
           "mb2ic3iw5oc2kw3sw2pl1pr1opw1_deconv",
           "g2mb1ic4iw4oc6kw2sw3_deconv",
           "mb1ic2iw4oc2kw3dlw3opw2_deconv",
           "g3mb2ic3iw6oc3kw3sw2dlw2pl2pr0opw1_deconv",
           "mb1ic2iw3oc1kw2pl-1pr-2_deconv",
           "g2mb2ic4ih4iw3oc2kh3kw2sh2sw1pt1pb0pl0pr1oph1_deconv",
           "mb1ic2id3ih2iw3oc3kd2kh3kw2sd2sh1sw3pfr1pbk0opd1opw2_deconv",
       })
    expect_reference_is_the_scatter(parse_descriptor(descriptor), 1);
}

// Any drawn conv's transpose, with any allowed output padding, is a valid deconv held to the scatter.
RC_GTEST_PROP(DeconvReference, IsTheScatterDefinitionOnTransposedDrawnConvs, ()) {
  Problem conv = *convs(Tier::small);
  Problem deconv = conv;
  deconv.op = Op::deconv;
  std::swap(deconv.in_channels, deconv.out_channels);
  for (size_t a = 0; a < 3; ++a) deconv.axes[a].in = conv.axes[a].out();
  // Any output padding allowed for this axis.
  for (int64_t a = conv.first_axis(); a < max_ndims; ++a) {
    SpatialAxis &axis = deconv.axes[static_cast<size_t>(a)];
    axis.output_padding = *rc::gen::inRange<int64_t>(0, std::max(axis.stride, axis.dilation));
  }
  RC_PRE(is_valid(deconv));
  expect_reference_is_the_scatter(deconv, 3);
  RC_ASSERT(!::testing::Test::HasFailure());
}

// The equivalent conv is the conv whose data gradient the deconv is: sizes and roles as core/problem/op.hpp says.
TEST(DeconvReference, EquivalentConvExchangesChannelsAndCropsTheOutputPadding) {
  const Problem deconv = parse_descriptor("g2mb2ic4iw5oc6kw3sw2pl1pr1opw1_deconv");
  EXPECT_EQ(deconv.out_size(2), (5 - 1) * 2 - 1 - 1 + 1 * (3 - 1) + 1 + 1);
  EXPECT_EQ(deconv.weight_shape(), (Shape{4, 3, 3}));
  EXPECT_EQ(deconv.output_shape(), (Shape{2, 6, 10}));
  const Problem conv = equivalent_conv(deconv);
  EXPECT_EQ(conv.op, Op::conv);
  EXPECT_EQ(conv.in_channels, 6);
  EXPECT_EQ(conv.out_channels, 4);
  EXPECT_EQ(conv.width().in, 10);
  EXPECT_EQ(conv.width().pad_end, 0);
  EXPECT_EQ(conv.width().out(), 5);
  EXPECT_EQ(conv.weight_shape(), deconv.weight_shape());
  EXPECT_EQ(conv.data_shape(), deconv.output_shape());
  EXPECT_EQ(deconv.multiply_adds(), conv.multiply_adds());
}

} // namespace
} // namespace convcheck
