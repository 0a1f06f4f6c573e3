#include "core/problem/problem.hpp"

#include <gtest/gtest.h>

#include "core/problem/descriptor.hpp"
#include "core/input_error.hpp"

namespace convcheck {
namespace {

std::string validation_error(const std::string &descriptor, int64_t max_elements = default_max_elements) {
  try {
    validate(parse_descriptor(descriptor), max_elements);
  } catch (const InputError &error) {
    return error.what();
  }
  return "";
}

TEST(Problem, OutputSizeFollowsTheDefinition) {
  const Problem config = parse_descriptor("mb1ic1ih7iw10oc1kh3kw2sh2sw3dlh2pt1pb0pl0pr2");
  EXPECT_EQ(config.height().out(), (7 + 1 + 0 - 2 * 2 - 1) / 2 + 1);
  EXPECT_EQ(config.width().out(), (10 + 0 + 2 - 1 * 1 - 1) / 3 + 1);
  EXPECT_EQ(config.weight_shape(), (Shape{1, 1, 3, 2}));
}

TEST(Problem, ValidationNamesTheFieldAndValue) {
  EXPECT_EQ(validation_error("g3mb1ic4ih5oc3kh1"), "groups 3 does not divide in_channels 4");
  EXPECT_EQ(validation_error("g2mb1ic4ih5oc3kh1"), "groups 2 does not divide out_channels 3");
  EXPECT_EQ(validation_error("mb0ic1ih5oc1kh1"), "batch 0 must be >= 1");
  EXPECT_EQ(validation_error("mb1ic1ih5oc1kh1sh0"), "stride_height 0 must be >= 1");
  EXPECT_EQ(validation_error("mb1ic1ih5oc1kh1dlw0"), "dilation_width 0 must be >= 1");
  EXPECT_EQ(validation_error("mb1ic1ih2iw5oc1kh4"),
            "output height is empty: in_height 2 + pad_top 0 + pad_bottom 0 < dilated kernel height 4");
  EXPECT_EQ(validation_error("mb1ic1ih5iw2oc1kh1kw2dlw3"),
            "output width is empty: in_width 2 + pad_left 0 + pad_right 0 < dilated kernel width 4");
  EXPECT_EQ(validation_error("mb1ic1ih5oc1kh1pt2000000000"), "pad_top 2000000000 exceeds the limit 1073741824");
  EXPECT_EQ(validation_error("mb1ic1ih5oc1kh1"), "");
}

TEST(Problem, SizeCapStopsAllocationBombs) {
  EXPECT_EQ(validation_error("mb1024ic1024ih1024iw1024oc1kh1"),
            "data tensor has 1099511627776 elements, more than the limit 268435456 (see --max-elements)");
  EXPECT_EQ(validation_error("mb2ic4ih4oc4kh1", 31), "data tensor has 128 elements, more than the limit 31 (see "
                                                     "--max-elements)");
}

TEST(Problem, LayoutAndDtypeSpellings) {
  EXPECT_EQ(parse_data_layout("nhwc", 2), DataLayout::nxc);
  EXPECT_EQ(parse_data_layout("NDHWC", 3), DataLayout::nxc);
  EXPECT_EQ(parse_data_layout("ncw", 1), DataLayout::ncx);
  EXPECT_EQ(to_string(WeightLayout::oxi, 2), "OHWI");
  EXPECT_EQ(to_string(WeightLayout::xio, 3), "DHWIO");
  EXPECT_EQ(to_string(WeightLayout::oix, 1), "OIW");
  EXPECT_THROW(parse_weight_layout("IOHW", 2), InputError);
  try {
    parse_data_layout("NCDHW", 2, "/config/data_layout");
    ADD_FAILURE() << "a 3-D layout accepted for a 2-D problem";
  } catch (const InputError &error) {
    EXPECT_STREQ(error.what(), "/config/data_layout 'NCDHW' is not NCHW or NHWC");
  }
  EXPECT_EQ(parse_dtype("bf16"), DType::bfloat16);
  EXPECT_EQ(parse_dtype("Float16"), DType::float16);
  try {
    parse_dtype("bf8", "/config/dtype");
    ADD_FAILURE() << "bf8 accepted";
  } catch (const InputError &error) {
    EXPECT_STREQ(error.what(), "/config/dtype 'bf8' is not float32, float64, bfloat16 or float16");
  }
}

} // namespace
} // namespace convcheck
