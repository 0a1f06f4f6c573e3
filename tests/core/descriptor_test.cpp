#include "core/descriptor.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "core/generators.hpp"
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
  const ConvConfig config = *conv_configs();
  RC_ASSERT(parse_descriptor(format_descriptor(config)) == config);
}

RC_GTEST_PROP(Descriptor, RoundTripsArbitraryFieldValues, ()) {
  // Not only generator output: any non-negative fields, layouts and dtypes print and parse back.
  ConvConfig config;
  for (const IntField &field : int_fields()) config.*field.member = *rc::gen::inRange<int64_t>(0, 100000);
  config.data_layout = *rc::gen::element(DataLayout::nchw, DataLayout::nhwc);
  config.weight_layout = *rc::gen::element(WeightLayout::oihw, WeightLayout::hwio, WeightLayout::ohwi);
  config.dtype = *rc::gen::element(DType::float32, DType::float64);
  RC_ASSERT(parse_descriptor(format_descriptor(config)) == config);
}

TEST(Descriptor, LeavesOutDefaults) {
  ConvConfig config;
  config.in_channels = 3;
  config.out_channels = 5;
  config.in_height = config.in_width = 7;
  config.kernel_height = config.kernel_width = 3;
  EXPECT_EQ(format_descriptor(config), "mb1ic3ih7iw7oc5kh3kw3");
  config.groups = 1;
  config.pad_bottom = 2;
  config.dilation_width = 2;
  config.data_layout = DataLayout::nhwc;
  config.weight_layout = WeightLayout::hwio;
  config.dtype = DType::float64;
  EXPECT_EQ(format_descriptor(config), "mb1ic3ih7iw7oc5kh3kw3dlw2pb2_nhwc_hwio_f64");
}

TEST(Descriptor, SquareDefaultsAndSeparators) {
  const ConvConfig config = parse_descriptor("ic2_oc4_ih9_kh3_nhwc");
  EXPECT_EQ(config.in_width, 9);
  EXPECT_EQ(config.kernel_width, 3);
  EXPECT_EQ(config.batch, 1);
  EXPECT_EQ(config.data_layout, DataLayout::nhwc);
}

TEST(Descriptor, ErrorsQuoteTheWholeInput) {
  EXPECT_EQ(parse_error("mb2ic3ih5oc4kh3dh1"),
            "unknown key 'dh' (a benchdnn descriptor? use --format benchdnn) in descriptor 'mb2ic3ih5oc4kh3dh1'");
  EXPECT_EQ(parse_error("ic3ih5kh3"), "missing key 'oc' in descriptor 'ic3ih5kh3'");
  EXPECT_EQ(parse_error("ic3ic4oc1ih5kh3"), "key 'ic' given twice in descriptor 'ic3ic4oc1ih5kh3'");
  EXPECT_EQ(parse_error("ic3oc1ih5kh3_nchwx"), "unknown word 'nchwx' in descriptor 'ic3oc1ih5kh3_nchwx'");
  EXPECT_EQ(parse_error("ic3oc1ih5kh3+"), "unexpected character '+' at offset 12 in descriptor 'ic3oc1ih5kh3+'");
  EXPECT_EQ(parse_error("ic3oc1ih5kh-3"), "unknown word 'kh' in descriptor 'ic3oc1ih5kh-3'");
  EXPECT_EQ(parse_error("ic3oc1ih5kh3sh99999999999999"),
            "value of 'sh' is too large in descriptor 'ic3oc1ih5kh3sh99999999999999'");
}

} // namespace
} // namespace convcheck
