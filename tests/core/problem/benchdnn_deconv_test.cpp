// benchdnn lines read with the deconv driver (parse_benchdnn_line(line, Op::deconv)): benchdnn's deconv meaning of
// each key, the output it computes, the padding it deduces, and how convcheck splits the derived end padding into
// pad_end and output_padding (core/problem/benchdnn_descriptor.hpp).
//
// Expected problems are written as convcheck descriptors (exact: see benchdnn_descriptor_test.cpp). Hand derivations
// use benchdnn's deconv formulas (tests/benchdnn/deconv/deconv_aux.cpp str2desc, deconv.hpp init_pad_r):
//   extent  = (k - 1) * (d + 1) + 1
//   out     = (i - 1) * s + extent - 2 * p            when out is not given (p defaults to 0)
//   p       = ((i - 1) * s - o + extent) / 2           when out is given and p is not (rounded toward zero)
//   derived = (i - 1) * s - o + extent - p             benchdnn's end padding
// and convcheck's split: longer = p - derived; output_padding = longer when 0 < longer < max(s, d + 1) (pad_end
// then p), else output_padding 0 and pad_end = derived.

#include "core/problem/benchdnn_descriptor.hpp"

#include <gtest/gtest.h>

#include "core/input_error.hpp"
#include "core/problem/descriptor.hpp"

namespace convcheck {
namespace {

std::string deconv(const std::string &line) {
  const BenchdnnLine result = parse_benchdnn_line(line, Op::deconv);
  if (!result.problem) return "no problem";
  validate(*result.problem, int64_t{1} << 40);
  return format_descriptor(*result.problem);
}

std::string deconv_error(const std::string &line) {
  try {
    parse_benchdnn_line(line, Op::deconv);
  } catch (const InputError &error) {
    return error.what();
  }
  return "";
}

TEST(BenchdnnDeconv, MissingOutputIsComputedWithEveryTapWritten) {
  // No oh: out = (5 - 1) * 2 + 3 - 2 * 1 = 9; derived = 8 - 9 + 3 - 1 = 1 = p, no output padding. Square.
  EXPECT_EQ(deconv("mb1ic8ih5oc4kh3sh2ph1"), "mb1ic8ih5iw5oc4kh3kw3sh2sw2pt1pb1pl1pr1_deconv");
  EXPECT_EQ(parse_benchdnn_line("mb1ic8ih5oc4kh3sh2ph1", Op::deconv).problem->out_size(1), 9);
  // Verbatim from oneDNN inputs/deconv/shapes_3d. Every axis: out = (i - 1) + 3 = i + 2, as given; padding 0.
  EXPECT_EQ(deconv(R"(g1mb1ic512ih9iw9id8oc256oh11ow11od10kh3kw3kd3sh1sw1sd1ph0pw0dh0dw0n"unet_3d:deconv8")"),
            "mb1ic512id8ih9iw9oc256kd3kh3kw3_deconv");
}

TEST(BenchdnnDeconv, MissingPaddingIsDeducedFromTheGivenOutput) {
  // PyTorch's 2x upsampling: p = (3 * 2 - 8 + 4) / 2 = 1; derived = 2 - 1 = 1.
  EXPECT_EQ(deconv("mb1ic4ih4oc4oh8kh4sh2"), "mb1ic4ih4iw4oc4kh4kw4sh2sw2pt1pb1pl1pr1_deconv");
  // An odd total: p = (8 - 10 + 3) / 2 = 0, derived 1: the output is one row shorter than with pad_end = p.
  EXPECT_EQ(deconv("mb1ic1ih5oc1oh10kh3sh2"), "mb1ic1ih5iw5oc1kh3kw3sh2sw2pb1pr1_deconv");
  // A negative total: p = (4 - 12 + 3) / 2 = -5 / 2 = -2 toward zero, derived = -5 + 2 = -3; longer = 1, not
  // below max(stride 1, dilation 1): a crop at both ends. out = 4 + 2 + 3 + 2 + 1 = 12.
  EXPECT_EQ(deconv("mb1ic1iw5oc1ow12kw3"), "mb1ic1iw5oc1kw3pl-2pr-3_deconv");
}

TEST(BenchdnnDeconv, AnOutputLongerByLessThanStrideOrDilationIsOutputPadding) {
  // Verbatim from oneDNN inputs/deconv/shapes_2d. p3 given: derived = 111 * 2 - 224 + 7 - 3 = 2, longer 1 < 2.
  EXPECT_EQ(deconv(R"(g1mb96ic64ih112iw112oc3oh224ow224kh7kw7sh2sw2ph3pw3n"googlenet_v1:conv1/7x7_s2")"),
            "mb96ic64ih112iw112oc3kh7kw7sh2sw2pt3pb3pl3pr3oph1opw1_deconv");
  // Verbatim from shapes_2d, a strided 1x1: derived = 27 * 2 - 56 + 1 - 0 = -1, longer 1 < 2.
  EXPECT_EQ(deconv(R"(g1mb50_oc512oh56ow56_ic256ih28iw28_kh1kw1sh2sw2ph0pw0n"resnet_50:res3a_branch1")"),
            "mb50ic256ih28iw28oc512kh1kw1sh2sw2oph1opw1_deconv");
  // Dilation 3 (dw2) lets an unstrided deconv take output_padding 1 and 2: extent 7, out with pad_end 0 is 4 + 7 = 11.
  EXPECT_EQ(deconv("mb1ic2iw5oc2ow12kw3dw2pw0"), "mb1ic2iw5oc2kw3dlw3opw1_deconv");
  EXPECT_EQ(deconv("mb1ic2iw5oc2ow13kw3dw2pw0"), "mb1ic2iw5oc2kw3dlw3opw2_deconv");
  // Without pw the padding is deduced first: p = (4 - 13 + 7) / 2 = -1, derived -1, the output no longer.
  EXPECT_EQ(deconv("mb1ic2iw5oc2ow13kw3dw2"), "mb1ic2iw5oc2kw3dlw3pl-1pr-1_deconv");
}

TEST(BenchdnnDeconv, AnOutputLongerByMoreIsANegativeEndPadding) {
  // longer 3 = max(stride 1, dilation 3): no output_padding can say it, so derived = 4 - 14 + 7 - 0 = -3.
  EXPECT_EQ(deconv("mb1ic2iw5oc2ow14kw3dw2pw0"), "mb1ic2iw5oc2kw3dlw3pr-3_deconv");
  // Strided: derived = 2 * 2 - 9 + 2 - 0 = -3; out = 4 + 3 + 1 + 1 = 9, the last three outputs written by no tap.
  EXPECT_EQ(deconv("mb1ic2iw3oc2ow9kw2sw2pw0"), "mb1ic2iw3oc2kw2sw2pr-3_deconv");
}

TEST(BenchdnnDeconv, AShorterOutputIsALargerEndPadding) {
  // Verbatim from shapes_2d. Height: derived = 0 - 1 + 1 - 0 = 0. Width: dw2 is dilation 3, extent 7,
  // derived = 4 - 2 + 7 - 3 = 6; out = 4 - 3 - 6 + 6 + 1 = 2.
  EXPECT_EQ(deconv(R"(ic8ih1iw5oc8oh1ow2kh1kw3ph0pw3dh0dw2n"deconv2d:1")"), "mb2ic8ih1iw5oc8kh1kw3dlw3pl3pr6_deconv");
  EXPECT_EQ(deconv(R"(ic8ih5iw1oc8oh2ow1kh3kw1ph3pw0dh2dw0n"deconv2d:2")"), "mb2ic8ih5iw1oc8kh3kw1dlh3pt3pb6_deconv");
}

TEST(BenchdnnDeconv, TheSameLineReadByEachDriver) {
  // As a conv: oh = (8 - 4 + 2) / 2 + 1 = 4. As a deconv: oh = 7 * 2 + 4 - 2 = 16.
  const std::string line = "mb1ic4ih8oc2kh4sh2ph1";
  EXPECT_EQ(parse_benchdnn_line(line).problem->op, Op::conv);
  EXPECT_EQ(parse_benchdnn_line(line).problem->out_size(1), 4);
  EXPECT_EQ(parse_benchdnn_line(line, Op::deconv).problem->out_size(1), 16);
}

TEST(BenchdnnDeconv, OptionAndPrecisionLinesAreReadAsForConv) {
  const BenchdnnLine dt = parse_benchdnn_line("--dt=bf16:bf16:f32", Op::deconv);
  ASSERT_TRUE(dt.precision && dt.precision->precision);
  EXPECT_EQ(*dt.precision->precision, (Precision{DType::bfloat16, DType::bfloat16, DType::float32, DType::float32}));
  EXPECT_EQ(parse_benchdnn_line("--dir=BWD_D", Op::deconv).skip_reason,
            "option line: benchdnn options such as --mb, --dir or --batch are not applied");
}

TEST(BenchdnnDeconv, ErrorsQuoteTheWholeLine) {
  // out = (2 - 1) * 1 + 1 - 2 * 2 = -2.
  EXPECT_EQ(deconv_error("ic2ih2oc2kh1ph2"), "computed oh -2 is not positive in benchdnn descriptor 'ic2ih2oc2kh1ph2'");
  EXPECT_EQ(deconv_error("ih5oc2kh3"), "missing key 'ic' in benchdnn descriptor 'ih5oc2kh3'");
  EXPECT_EQ(deconv_error("ic2ih5oc2"), "missing key 'kh' in benchdnn descriptor 'ic2ih5oc2'");
  EXPECT_EQ(deconv_error("ic2ih5oc2kh3op1"), "unknown key 'op' in benchdnn descriptor 'ic2ih5oc2kh3op1'");
}

TEST(BenchdnnDeconv, EndSplitKeepsTheDeconvAndStatesOutputPaddingBelowTheLimit) {
  // pad_end - output_padding is all the deconv's end depends on; the split is the reader's whatever it was given.
  const SpatialAxis given{.in = 5, .kernel = 3, .stride = 2, .dilation = 1, .pad_begin = 1, .pad_end = 0};
  const SpatialAxis split = benchdnn_deconv_end(given);
  EXPECT_EQ(split.pad_end, 1);
  EXPECT_EQ(split.output_padding, 1);
  EXPECT_EQ(split.transposed_out(), given.transposed_out());
  EXPECT_EQ(benchdnn_deconv_end(split), split);
  SpatialAxis cropped = given;
  cropped.pad_end = -1; // longer 2, not below the stride
  EXPECT_EQ(benchdnn_deconv_end(cropped), cropped);
}

} // namespace
} // namespace convcheck
