// An op is a row (core/problem/op.hpp): its size formula, its weight's shape, its validation rule for
// output_padding, and its spelling in descriptors.

#include "core/problem/op.hpp"

#include <gtest/gtest.h>

#include "core/input_error.hpp"
#include "core/problem/descriptor.hpp"

namespace convcheck {
namespace {

std::string validation_error(const std::string &descriptor) {
  try {
    validate(parse_descriptor(descriptor));
  } catch (const InputError &error) {
    return error.what();
  }
  return "";
}

// PyTorch's ConvTranspose output size: (in - 1) * stride - pad_begin - pad_end + dilation * (kernel - 1) +
// output_padding + 1; torch.nn.ConvTranspose2d(3, 2, 3, stride=2, padding=1, output_padding=1) maps 5 x 5 to
// 10 x 10.
TEST(Op, DeconvSizesFollowPyTorch) {
  const Problem deconv = parse_descriptor("mb1ic3ih5oc2kh3sh2sw2pt1pb1pl1pr1oph1opw1_deconv");
  EXPECT_EQ(deconv.op, Op::deconv);
  EXPECT_EQ(deconv.output_shape(), (Shape{1, 2, 10, 10}));
  EXPECT_EQ(deconv.weight_shape(), (Shape{3, 2, 3, 3})); // [C_in, C_out/G, kH, kW]
  EXPECT_EQ(deconv.data_shape(), (Shape{1, 3, 5, 5}));
  const Problem grouped = parse_descriptor("g2mb1ic4iw3oc6kw2_deconv");
  EXPECT_EQ(grouped.weight_shape(), (Shape{4, 3, 2}));
  EXPECT_EQ(grouped.output_shape(), (Shape{1, 6, 4}));
}

TEST(Op, OutputPaddingIsBelowStrideOrDilationAndOnlyInADeconv) {
  EXPECT_EQ(validation_error("mb1ic1iw5oc1kw3sw2opw1_deconv"), "");
  EXPECT_EQ(validation_error("mb1ic1iw5oc1kw3dlw3opw2_deconv"), "");
  EXPECT_EQ(validation_error("mb1ic1iw5oc1kw3sw2opw2_deconv"),
            "output_padding_width 2 must be less than max(stride 2, dilation 1)");
  EXPECT_EQ(validation_error("mb1ic1iw5oc1kw3opw-1_deconv"), "output_padding_width -1 must be >= 0");
  EXPECT_EQ(validation_error("mb1ic1iw5oc1kw3sw2opw1"), "output_padding_width 1 must be 0 in a conv");
  EXPECT_EQ(validation_error("mb1ic1iw2oc1kw1pl2_deconv"),
            "output width is empty: (in_width 2 - 1) * stride 1 - pad_left 2 - pad_right 0 + dilation 1 * "
            "(kernel 1 - 1) + output_padding 0 + 1 < 1");
}

// Negative padding extends a deconv's output at that end (the equivalent conv crops it).
TEST(Op, NegativePaddingExtendsTheDeconvOutput) {
  const Problem deconv = parse_descriptor("mb1ic1iw3oc1kw2pl-1pr-2_deconv");
  EXPECT_EQ(deconv.out_size(2), 2 * 1 + 1 + 2 + 1 + 1);
  EXPECT_EQ(validation_error("mb1ic1iw3oc1kw2pl-1pr-2_deconv"), "");
}

TEST(Op, DescriptorsSpellTheOpAndOutputPadding) {
  const Problem deconv = parse_descriptor("g2mb2ic4ih5iw6oc6kh3kw2sh2sw3oph1opw2_deconv_nhwc");
  EXPECT_EQ(deconv.height().output_padding, 1);
  EXPECT_EQ(deconv.width().output_padding, 2);
  EXPECT_EQ(format_descriptor(deconv), "g2mb2ic4ih5iw6oc6kh3kw2sh2sw3oph1opw2_deconv_nhwc");
  EXPECT_EQ(parse_descriptor(format_descriptor(deconv)), deconv);
  EXPECT_EQ(format_descriptor(parse_descriptor("mb1ic1iw5oc1kw3_deconv")), "mb1ic1iw5oc1kw3_deconv");
}

TEST(Op, EveryOpIsARowWithTheThreeDirections) {
  for (const OpInfo &row : op_table()) {
    EXPECT_EQ(parse_op(row.name), row.op);
    EXPECT_EQ(row.directions.size(), 3u);
    // The role map is a permutation that keeps the weight and its gradient.
    EXPECT_EQ(conv_role(row.op, Role::weight), Role::weight);
    EXPECT_EQ(conv_role(row.op, Role::grad_weight), Role::grad_weight);
    // Each direction's product is the conv direction's product under the role map.
    for (const DirectionInfo &d : row.directions)
      EXPECT_EQ(conv_role(row.op, d.produces), info(conv_direction(row.op, d.direction)).produces);
  }
  try {
    parse_op("transpose");
    FAIL();
  } catch (const InputError &error) {
    EXPECT_STREQ(error.what(), "op 'transpose' is not conv or deconv");
  }
}

} // namespace
} // namespace convcheck
