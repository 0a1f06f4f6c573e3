#include "core/problem/descriptor.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "core/problem/fields.hpp"
#include "core/problem/generators.hpp"
#include "core/input_error.hpp"

namespace convcheck {
namespace {

std::string parse_error(const std::string &text) {
  try {
    parse_descriptor(text);
  } catch (const InputError &error) {
    return error.what();
  }
  return "";
}

RC_GTEST_PROP(Descriptor, RoundTripsEveryGeneratedConfig, ()) {
  const Problem config = *problems();
  RC_ASSERT(parse_descriptor(format_descriptor(config)) == config);
}

RC_GTEST_PROP(Descriptor, RoundTripsArbitraryFieldValues, ()) {
  // Not only generator output: any rank, any field values (negative where a field may be), layouts and formats,
  // mixed formats included, print and parse back.
  Problem problem;
  problem.ndims = *rc::gen::inRange<int64_t>(1, 4);
  for (const IntField &field : int_fields())
    for (int64_t a = field.per_axis() ? problem.first_axis() : 0; a < (field.per_axis() ? max_ndims : 1); ++a)
      field.set(problem, a, *rc::gen::inRange<int64_t>(field.may_be_negative ? -100000 : 0, 100000));
  problem.data_layout = *rc::gen::element(DataLayout::ncx, DataLayout::nxc);
  problem.weight_layout = *rc::gen::element(WeightLayout::oix, WeightLayout::xio, WeightLayout::oxi);
  const auto dtype = [] { return *rc::gen::element(DType::float32, DType::float64); };
  problem.precision = {dtype(), dtype(), dtype(), dtype()};
  RC_ASSERT(parse_descriptor(format_descriptor(problem)) == problem);
}

TEST(Descriptor, RankFollowsTheKeys) {
  const Problem one = parse_descriptor("mb2ic4iw9oc6kw3pl-1_nwc_owi");
  EXPECT_EQ(one.ndims, 1);
  EXPECT_EQ(one.width().in, 9);
  EXPECT_EQ(one.width().pad_begin, -1);
  EXPECT_EQ(one.height(), SpatialAxis{});
  EXPECT_EQ(one.data_layout, DataLayout::nxc);
  EXPECT_EQ(format_descriptor(one), "mb2ic4iw9oc6kw3pl-1_nwc_owi");
  const Problem three = parse_descriptor("ic4id5ih6oc6kd2kh3sd2pbk-1_ndhwc_dhwio_f32:f32:f32:f64");
  EXPECT_EQ(three.ndims, 3);
  EXPECT_EQ(three.depth().in, 5);
  EXPECT_EQ(three.width().in, 6);  // copies the nearest given axis, outer first
  EXPECT_EQ(three.width().kernel, 3);
  EXPECT_EQ(three.depth().pad_end, -1);
  EXPECT_EQ(three.precision.acc, DType::float64);
  EXPECT_EQ(three.precision.src, DType::float32);
  EXPECT_EQ(format_descriptor(three), "mb1ic4id5ih6iw6oc6kd2kh3kw3sd2pbk-1_ndhwc_dhwio_f32:f32:f32:f64");
}

TEST(Descriptor, LayoutsMustMatchTheRank) {
  EXPECT_EQ(parse_error("ic3oc4iw5kw3_nchw"), "layout 'nchw' is not 1-D like the keys in descriptor 'ic3oc4iw5kw3_nchw'");
  EXPECT_EQ(parse_error("ic3oc4ih5kh3sh-1"), "key 'sh' must not be negative in descriptor 'ic3oc4ih5kh3sh-1'");
  EXPECT_EQ(parse_error("ic3oc4ih5kh3_f32:f64"),
            "formats 'f32:f64' are not one word or four (src:weight:dst:acc) in descriptor 'ic3oc4ih5kh3_f32:f64'");
}

TEST(Descriptor, LeavesOutDefaults) {
  Problem config;
  config.in_channels = 3;
  config.out_channels = 5;
  config.height().in = config.width().in = 7;
  config.height().kernel = config.width().kernel = 3;
  EXPECT_EQ(format_descriptor(config), "mb1ic3ih7iw7oc5kh3kw3");
  config.groups = 1;
  config.height().pad_end = 2;
  config.width().dilation = 2;
  config.data_layout = DataLayout::nxc;
  config.weight_layout = WeightLayout::xio;
  config.precision = Precision::uniform(DType::float64);
  EXPECT_EQ(format_descriptor(config), "mb1ic3ih7iw7oc5kh3kw3dlw2pb2_nhwc_hwio_f64");
}

TEST(Descriptor, SquareDefaultsAndSeparators) {
  const Problem config = parse_descriptor("ic2_oc4_ih9_kh3_nhwc");
  EXPECT_EQ(config.width().in, 9);
  EXPECT_EQ(config.width().kernel, 3);
  EXPECT_EQ(config.batch, 1);
  EXPECT_EQ(config.data_layout, DataLayout::nxc);
}

TEST(Descriptor, ErrorsQuoteTheWholeInput) {
  EXPECT_EQ(parse_error("mb2ic3ih5oc4kh3dh1"),
            "unknown key 'dh' (a benchdnn descriptor? use --format benchdnn) in descriptor 'mb2ic3ih5oc4kh3dh1'");
  EXPECT_EQ(parse_error("ic3ih5kh3"), "missing key 'oc' in descriptor 'ic3ih5kh3'");
  EXPECT_EQ(parse_error("ic3ic4oc1ih5kh3"), "key 'ic' given twice in descriptor 'ic3ic4oc1ih5kh3'");
  EXPECT_EQ(parse_error("ic3oc1ih5kh3_nchwx"), "unknown word 'nchwx' in descriptor 'ic3oc1ih5kh3_nchwx'");
  EXPECT_EQ(parse_error("ic3oc1ih5kh3+"), "unexpected character '+' at offset 12 in descriptor 'ic3oc1ih5kh3+'");
  EXPECT_EQ(parse_error("ic3oc1ih5kh-3"), "key 'kh' must not be negative in descriptor 'ic3oc1ih5kh-3'");
  EXPECT_EQ(parse_error("ic3oc1ih5kh3sh99999999999999"),
            "value of 'sh' is too large in descriptor 'ic3oc1ih5kh3sh99999999999999'");
}

} // namespace
} // namespace convcheck
