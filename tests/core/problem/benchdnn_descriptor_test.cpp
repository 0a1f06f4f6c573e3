#include "core/problem/benchdnn_descriptor.hpp"

#include <algorithm>
#include <fstream>
#include <regex>
#include <utility>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "core/problem/descriptor.hpp"
#include "core/problem/generators.hpp"
#include "core/input_error.hpp"

// Expected configs are written as convcheck descriptors (core/problem/descriptor.hpp). That is exact, not a summary:
// parse_descriptor(format_descriptor(c)) == c for every config, and the string names every field that differs
// from convcheck's defaults (g1, stride 1, dilation 1 = none, padding 0, nchw, oihw, f32), so a layout or dtype
// other than the default would show up as a suffix. Note convcheck's `dlh` counts from 1, benchdnn's `dh` from 0.
//
// Hand derivations use benchdnn's formulas (tests/benchdnn/conv/conv_aux.cpp str2desc, conv.hpp init_pad_r):
//   extent  = (k - 1) * (d + 1) + 1
//   out     = (i - extent + 2 * p) / s + 1          when out is not given (p defaults to 0)
//   p       = ((o - 1) * s - i + extent) / 2         when out is given and p is not
//   pad_end = (o - 1) * s - i + extent - p           always (negative: a crop)

namespace convcheck {
namespace {

// The parsed config as a convcheck descriptor, or "skipped: <reason>", or "" for a blank line.
std::string parsed(const std::string &line) {
  const BenchdnnLine result = parse_benchdnn_line(line);
  if (result.problem) {
    EXPECT_EQ(result.skip_reason, "") << line;
    return format_descriptor(*result.problem);
  }
  return result.skip_reason.empty() ? "" : "skipped: " + result.skip_reason;
}

std::string parse_error(const std::string &line) {
  try {
    parse_benchdnn_line(line);
  } catch (const InputError &error) {
    return error.what();
  }
  return "";
}

struct Expected {
  const char *line;
  const char *descriptor;
  const char *name;
};

void expect_all(const std::vector<Expected> &cases) {
  for (const Expected &expected : cases) {
    EXPECT_EQ(parsed(expected.line), expected.descriptor) << expected.line;
    EXPECT_EQ(parse_benchdnn_line(expected.line).name, expected.name) << expected.line;
  }
}

TEST(BenchdnnDescriptor, ShapesBasicTwoDimensionalLines) {
  // Verbatim from oneDNN tests/benchdnn/inputs/conv/shapes_basic. No width key: the width axis is a copy of the
  // height axis. mb is not given: benchdnn's default 2. `g1` is groups 1.
  expect_all({
      // ih5 oh5 kh3 ph1: extent 3, pad_end = 4*1 - 5 + 3 - 1 = 1.
      {R"(g1ic3oc16_ih5oh5kh3ph1_n"2d_conv:1st")", "mb2ic3ih5iw5oc16kh3kw3pt1pb1pl1pr1", "2d_conv:1st"},
      // ih5 oh5 kh1 ph0: pad_end = 4 - 5 + 1 - 0 = 0.
      {R"(g1ic16oc16_ih5oh5kh1ph0_n"2d_conv:1x1")", "mb2ic16ih5iw5oc16kh1kw1", "2d_conv:1x1"},
      // ih8 oh4 kh3 ph1 sh2: pad_end = 3*2 - 8 + 3 - 1 = 0, so the padding is asymmetric (1 top, 0 bottom).
      {R"(g1ic17oc17_ih8oh4kh3ph1sh2_n"2d_conv:3x3_stride_tail")", "mb2ic17ih8iw8oc17kh3kw3sh2sw2pt1pl1",
       "2d_conv:3x3_stride_tail"},
      // ih5 oh8 kh3 ph3: pad_end = 7 - 5 + 3 - 3 = 2: 3 on top, 2 at the bottom.
      {R"(g1ic16oc16_ih5oh8kh3ph3_n"2d_conv:gemm")", "mb2ic16ih5iw5oc16kh3kw3pt3pb2pl3pr2", "2d_conv:gemm"},
      // ih8 oh5 kh3 ph3 sh2: pad_end = 4*2 - 8 + 3 - 3 = 0.
      {R"(g1ic17oc17_ih8oh5kh3ph3sh2_n"2d_conv:gemm_stride_tail")", "mb2ic17ih8iw8oc17kh3kw3sh2sw2pt3pl3",
       "2d_conv:gemm_stride_tail"},
      // g4: groups 4 (divisibility is validate()'s business). pad_end = 3*2 - 8 + 3 - 1 = 0.
      {R"(g4ic20oc20_ih8oh4kh3ph1sh2_n"2d_conv:grouped_stride_tail")", "g4mb2ic20ih8iw8oc20kh3kw3sh2sw2pt1pl1",
       "2d_conv:grouped_stride_tail"},
      // Depthwise: g = ic = oc = 17. pad_end = 4 - 5 + 3 - 1 = 1.
      {R"(g17ic17oc17_ih5oh5kh3ph1_n"2d_conv:depthwise_tail")", "g17mb2ic17ih5iw5oc17kh3kw3pt1pb1pl1pr1",
       "2d_conv:depthwise_tail"},
  });
}

TEST(BenchdnnDescriptor, ShapesBasicStridedOneByOneHasNegativeDerivedPadding) {
  // ih8 oh4 kh1 ph0 sh2: pad_end = 3*2 - 8 + 1 - 0 = -1. oneDNN accepts pad_r > -stride (the last input row is
  // simply never read); convcheck holds it as a crop of that row, and the output stays exactly 4x4.
  const BenchdnnLine line = parse_benchdnn_line(R"(g1ic17oc17_ih8oh4kh1ph0sh2_n"2d_conv:1x1_stride_tail")");
  ASSERT_TRUE(line.problem);
  EXPECT_EQ(format_descriptor(*line.problem), "mb2ic17ih8iw8oc17kh1kw1sh2sw2pb-1pr-1");
  EXPECT_EQ(line.skip_reason, "");
  EXPECT_EQ(line.name, "2d_conv:1x1_stride_tail");
  EXPECT_EQ(line.problem->height().out(), 4);
  EXPECT_EQ(line.problem->width().out(), 4);
  EXPECT_NO_THROW(validate(*line.problem));
}

TEST(BenchdnnDescriptor, ShapesBasicOneDimensionalLines) {
  // Verbatim from shapes_basic. Only width keys: a 1-D problem (ndims 1; sanitize_desc gives the depth and height
  // axes its unit defaults, convcheck's SpatialAxis{}, and only width keys are printed).
  // Width pad_end = (ow - 1) * sw - iw + kw - pw, computed per line below.
  expect_all({
      // 4 - 5 + 3 - 1 = 1
      {R"(g1ic3oc16_iw5ow5kw3pw1_n"1d_conv:1st")", "mb2ic3iw5oc16kw3pl1pr1", "1d_conv:1st"},
      {R"(g1ic3oc17_iw5ow5kw3pw1_n"1d_conv:1st_tail")", "mb2ic3iw5oc17kw3pl1pr1", "1d_conv:1st_tail"},
      // 3*2 - 8 + 3 - 1 = 0
      {R"(g1ic3oc17_iw8ow4kw3pw1sw2_n"1d_conv:1st_stride_tail")", "mb2ic3iw8oc17kw3sw2pl1",
       "1d_conv:1st_stride_tail"},
      // 4 - 5 + 1 - 0 = 0
      {R"(g1ic16oc16_iw5ow5kw1pw0_n"1d_conv:1x1")", "mb2ic16iw5oc16kw1", "1d_conv:1x1"},
      {R"(g1ic17oc17_iw5ow5kw1pw0_n"1d_conv:1x1_tail")", "mb2ic17iw5oc17kw1", "1d_conv:1x1_tail"},
      // 3*2 - 8 + 1 - 0 = -1: the last column is cropped
      {R"(g1ic17oc17_iw8ow4kw1pw0sw2_n"1d_conv:1x1_stride_tail")", "mb2ic17iw8oc17kw1sw2pr-1",
       "1d_conv:1x1_stride_tail"},
      {R"(g1ic16oc16_iw5ow5kw3pw1_n"1d_conv:3x3")", "mb2ic16iw5oc16kw3pl1pr1", "1d_conv:3x3"},
      {R"(g1ic17oc17_iw5ow5kw3pw1_n"1d_conv:3x3_tail")", "mb2ic17iw5oc17kw3pl1pr1", "1d_conv:3x3_tail"},
      // 3*2 - 8 + 3 - 1 = 0
      {R"(g1ic17oc17_iw8ow4kw3pw1sw2_n"1d_conv:3x3_stride_tail")", "mb2ic17iw8oc17kw3sw2pl1",
       "1d_conv:3x3_stride_tail"},
      // 7 - 5 + 3 - 3 = 2
      {R"(g1ic16oc16_iw5ow8kw3pw3_n"1d_conv:gemm")", "mb2ic16iw5oc16kw3pl3pr2", "1d_conv:gemm"},
      {R"(g1ic17oc17_iw5ow8kw3pw3_n"1d_conv:gemm_tail")", "mb2ic17iw5oc17kw3pl3pr2", "1d_conv:gemm_tail"},
      // 4*2 - 8 + 3 - 3 = 0
      {R"(g1ic17oc17_iw8ow5kw3pw3sw2_n"1d_conv:gemm_stride_tail")", "mb2ic17iw8oc17kw3sw2pl3",
       "1d_conv:gemm_stride_tail"},
      {R"(g4ic16oc16_iw5ow5kw3pw1_n"1d_conv:grouped")", "g4mb2ic16iw5oc16kw3pl1pr1", "1d_conv:grouped"},
      {R"(g4ic20oc20_iw5ow5kw3pw1_n"1d_conv:grouped_tail")", "g4mb2ic20iw5oc20kw3pl1pr1",
       "1d_conv:grouped_tail"},
      {R"(g4ic20oc20_iw8ow4kw3pw1sw2_n"1d_conv:grouped_stride_tail")", "g4mb2ic20iw8oc20kw3sw2pl1",
       "1d_conv:grouped_stride_tail"},
      {R"(g16ic16oc16_iw5ow5kw3pw1_n"1d_conv:depthwise")", "g16mb2ic16iw5oc16kw3pl1pr1",
       "1d_conv:depthwise"},
      {R"(g17ic17oc17_iw5ow5kw3pw1_n"1d_conv:depthwise_tail")", "g17mb2ic17iw5oc17kw3pl1pr1",
       "1d_conv:depthwise_tail"},
      {R"(g17ic17oc17_iw8ow4kw3pw1sw2_n"1d_conv:depthwise_stride_tail")", "g17mb2ic17iw8oc17kw3sw2pl1",
       "1d_conv:depthwise_stride_tail"},
  });
}

TEST(BenchdnnDescriptor, EveryFieldOfOneConfigSpelledOut) {
  // shapes_basic "2d_conv:gemm" once more, field by field: pad_end = (8-1)*1 - 5 + 3 - 3 = 2 on both axes.
  const BenchdnnLine line = parse_benchdnn_line(R"(g1ic16oc16_ih5oh8kh3ph3_n"2d_conv:gemm")");
  ASSERT_TRUE(line.problem);
  const SpatialAxis axis{.in = 5, .kernel = 3, .stride = 1, .dilation = 1, .pad_begin = 3, .pad_end = 2};
  const Problem expected{.op = Op::conv,
                         .ndims = 2,
                         .batch = 2,
                         .groups = 1,
                         .in_channels = 16,
                         .out_channels = 16,
                         .axes = {SpatialAxis{}, axis, axis},
                         .data_layout = DataLayout::ncx,
                         .weight_layout = WeightLayout::oix,
                         .precision = Precision::uniform(DType::float32)};
  EXPECT_EQ(*line.problem, expected);
  EXPECT_EQ(line.problem->height().out(), 8);
  EXPECT_EQ(line.problem->width().out(), 8);
}

TEST(BenchdnnDescriptor, ResNeXtLinesWithEveryKeySpelledOut) {
  // Verbatim from oneDNN inputs/conv/shapes_resnext_101. conv1: ih224 oh112 kh7 sh2 ph3 dh0:
  // pad_end = 111*2 - 224 + 7 - 3 = 2 (3 top, 2 bottom); width identical.
  EXPECT_EQ(parsed(R"(mb128_ic3oc64_ih224oh112kh7sh2dh0ph3_iw224ow112kw7sw2dw0pw3_n"resnext_101:conv1*1")"),
            "mb128ic3ih224iw224oc64kh7kw7sh2sw2pt3pb2pl3pr2");
  // conv9, a strided 1x1: pad_end = 27*2 - 56 + 1 - 0 = -1, a crop like shapes_basic's 1x1_stride_tail.
  EXPECT_EQ(parsed(R"(mb128_ic256oc512_ih56oh28kh1sh2dh0ph0_iw56ow28kw1sw2dw0pw0_n"resnext_101:conv9*1")"),
            "mb128ic256ih56iw56oc512kh1kw1sh2sw2pb-1pr-1");
}

TEST(BenchdnnDescriptor, NameAndUnderscoreSeparators) {
  // No oh: oh = (7 - 3 + 0)/1 + 1 = 5, pad_end = 4 - 7 + 3 - 0 = 0. The name runs to the end of the line and
  // keeps its underscores and colons; one pair of quotes is dropped.
  const BenchdnnLine line = parse_benchdnn_line(R"(mb1_ic2_ih7_oc4_kh3_n"my_conv:a_b")");
  ASSERT_TRUE(line.problem);
  EXPECT_EQ(format_descriptor(*line.problem), "mb1ic2ih7iw7oc4kh3kw3");
  EXPECT_EQ(line.name, "my_conv:a_b");
  // An unquoted name, and `_` doubled or leading (which benchdnn itself happens to reject).
  EXPECT_EQ(parse_benchdnn_line("_mb1__ic2ih7oc4kh3nplain").name, "plain");
  EXPECT_EQ(parsed("_mb1__ic2ih7oc4kh3nplain"), "mb1ic2ih7iw7oc4kh3kw3");
  EXPECT_EQ(parse_benchdnn_line("mb1ic2ih7oc4kh3").name, "");
}

TEST(BenchdnnDescriptor, SquarePromotionCopiesStridePaddingAndDilation) {
  // Height only: ih9 kh3 sh2 ph2 dh1 (benchdnn dilation 1 = convcheck dilation 2). extent = 2*2 + 1 = 5,
  // oh = (9 - 5 + 4)/2 + 1 = 5, pad_end = 4*2 - 9 + 5 - 2 = 2. The width axis is a copy.
  EXPECT_EQ(parsed("ic3ih9oc8kh3sh2ph2dh1"), "mb2ic3ih9iw9oc8kh3kw3sh2sw2dlh2dlw2pt2pb2pl2pr2");
}

TEST(BenchdnnDescriptor, DilatedNonSquare) {
  // Height: kh3 dh1 -> extent 5, oh = 10 - 5 + 1 = 6, pad_end = 5 - 10 + 5 = 0.
  // Width: kw2 dw2 -> extent (2-1)*3 + 1 = 4, ow = 12 - 4 + 1 = 9, pad_end = 8 - 12 + 4 = 0.
  EXPECT_EQ(parsed("mb1ic4ih10iw12oc4kh3kw2dh1dw2"), "mb1ic4ih10iw12oc4kh3kw2dlh2dlw3");
}

TEST(BenchdnnDescriptor, OutputGivenWithoutPadding) {
  // ih10 oh5 kh3 sh2: ph = (4*2 - 10 + 3)/2 = 1/2 = 0, pad_end = 8 - 10 + 3 - 0 = 1: the odd unit goes to the
  // bottom.
  EXPECT_EQ(parsed("mb1ic2ih10oc2oh5kh3sh2"), "mb1ic2ih10iw10oc2kh3kw3sh2sw2pb1pr1");
  // ih5 oh5 kh3: ph = (4 - 5 + 3)/2 = 1, pad_end = 4 - 5 + 3 - 1 = 1 ("same" padding).
  EXPECT_EQ(parsed("mb1ic2ih5oc2oh5kh3"), "mb1ic2ih5iw5oc2kh3kw3pt1pb1pl1pr1");
  // ih10 oh3 kh3: ph = (2 - 10 + 3)/2 = -5/2 = -2 (truncated toward zero): a negative top padding, and
  // pad_end = 2 - 10 + 3 + 2 = -3. Both are crops: (10 - 2 - 3 - 3)/1 + 1 = 3 rows out, as benchdnn's oh3.
  EXPECT_EQ(parsed("mb1ic2ih10oc2oh3kh3"), "mb1ic2ih10iw10oc2kh3kw3pt-2pb-3pl-2pr-3");
  EXPECT_EQ(parse_benchdnn_line("mb1ic2ih10oc2oh3kh3").problem->height().out(), 3);
}

TEST(BenchdnnDescriptor, StridedDescriptorWithoutOutputCanDeriveNegativePadding) {
  // ih6 kh3 sh2, nothing else: oh = (6 - 3)/2 + 1 = 2, pad_end = 2 - 6 + 3 - 0 = -1.
  EXPECT_EQ(parsed("mb1ic2ih6oc2kh3sh2"), "mb1ic2ih6iw6oc2kh3kw3sh2sw2pb-1pr-1");
}

TEST(BenchdnnDescriptor, TruncatingDivisionGivesOneOutputAndBottomPadding) {
  // ih4 kh5 sh2: oh = (4 - 5)/2 + 1 = 0 + 1 = 1 (C++ truncation, as in benchdnn), pad_end = 0 - 4 + 5 - 0 = 1.
  EXPECT_EQ(parsed("ic1oc1ih4kh5sh2"), "mb2ic1ih4iw4oc1kh5kw5sh2sw2pb1pr1");
}

TEST(BenchdnnDescriptor, LoneZeroWidthPaddingDoesNotStopSquarePromotion) {
  // `pw0` alone leaves the width axis out (str2desc: pw < 1), so sanitize_desc copies ph1 over it.
  EXPECT_EQ(parsed("ic2ih5oc2kh3ph1pw0"), "mb2ic2ih5iw5oc2kh3kw3pt1pb1pl1pr1");
}

TEST(BenchdnnDescriptor, DepthKeysAtTheirNeutralValuesKeepTwoDimensions) {
  // str2desc's no_d: id, kd, od, dd all 0, sd 1 and pd < 1. oh = 5 - 3 + 1 = 3, pad_end = 2 - 5 + 3 = 0.
  EXPECT_EQ(parsed("ic2ih5oc2kh3pd0sd1dd0"), "mb2ic2ih5iw5oc2kh3kw3");
}

TEST(BenchdnnDescriptor, HeightKeysAtTheirNeutralValuesKeepOneDimension) {
  // no_h likewise: ph0 sh1 dh0 alone leave the height out. ow = 5 - 3 + 1 = 3, pad_end = 2 - 5 + 3 = 0.
  EXPECT_EQ(parsed("ic2iw5oc2kw3ph0sh1dh0"), "mb2ic2iw5oc2kw3");
  EXPECT_EQ(parse_benchdnn_line("ic2iw5oc2kw3ph0sh1dh0").problem->ndims, 1);
}

TEST(BenchdnnDescriptor, ThreeDimensionalLines) {
  // Verbatim from shapes_basic. Depth keys only: sanitize_desc copies the depth axis to height and width (cubic).
  // id5 od5 kd3 pd1: pad_end = 4 - 5 + 3 - 1 = 1 on every axis.
  const BenchdnnLine line = parse_benchdnn_line(R"(g1ic3oc16_id5od5kd3pd1_n"3d_conv:1st")");
  ASSERT_TRUE(line.problem);
  EXPECT_EQ(line.problem->ndims, 3);
  EXPECT_EQ(format_descriptor(*line.problem), "mb2ic3id5ih5iw5oc16kd3kh3kw3pfr1pbk1pt1pb1pl1pr1");
  EXPECT_EQ(line.skip_reason, "");
  EXPECT_EQ(line.name, "3d_conv:1st");
  // Depth keys next to height and width keys. Depth and height: id1 od2 kd3 dd1 pd1: extent = 2*2 + 1 = 5,
  // pad_end = 1 - 1 + 5 - 1 = 4. Width: iw1 ow1 kw1, pw deduced (0 - 1 + 1)/2 = 0, pad_end = 0 - 1 + 1 - 0 = 0.
  EXPECT_EQ(parsed("mb1ic16id1ih1iw1oc16od2oh2ow1kd3kh3kw1dd1dh1ph1pd1"),
            "mb1ic16id1ih1iw1oc16kd3kh3kw1dld2dlh2pfr1pbk4pt1pb4");
  // A lone depth stride or padding brings the depth axis in, which then needs id and kd (in benchdnn too).
  EXPECT_EQ(parse_error("ic2ih5oc2kh3sd2"), "missing key 'id' in benchdnn descriptor 'ic2ih5oc2kh3sd2'");
  EXPECT_EQ(parse_error("ic2ih5oc2kh3pd1"), "missing key 'id' in benchdnn descriptor 'ic2ih5oc2kh3pd1'");
}

TEST(BenchdnnDescriptor, OptionLinesAreSkipped) {
  const std::string option = "skipped: option line: benchdnn options such as --mb, --dir or --batch are not applied";
  EXPECT_EQ(parsed("--dir=FWD_B --batch=shapes_basic"), option);
  EXPECT_EQ(parsed("  --mb=2   # every later descriptor gets mb 2"), option);
  EXPECT_EQ(parsed("--reset"), option);
}

// What `repro --emit benchdnn` writes: the environment, one CPU (convcheck runs oneDNN on one thread), the program.
TEST(BenchdnnDescriptor, WholeCommandLinesWithTheirPrefix) {
  const char *descriptor = "mb1_ic1oc1_ih5oh3kh3sh1dh0ph0_iw1ow1kw4sw2dw0pw2";
  for (const char *prefix : {"", "ONEDNN_MAX_CPU_ISA=AVX2 ", "taskset -c 0 ", "ONEDNN_MAX_CPU_ISA=AVX2 taskset -c 0 "})
    EXPECT_EQ(parsed(fmt::format("{}./benchdnn --conv --dir=FWD_D --dt=f32 --stag=abcd --wtag=any --dtag=abcd "
                                 "--alg=direct --attr-scratchpad=user {}",
                                 prefix, descriptor)),
              "mb1ic1ih5iw1oc1kh3kw4sw2pl2pr1")
        << prefix;
  EXPECT_EQ(parse_error(fmt::format("nice ./benchdnn --conv {}", descriptor)),
            fmt::format("'nice' before the benchdnn program is not an environment assignment in benchdnn descriptor "
                        "'nice ./benchdnn --conv {}'",
                        descriptor));
}

TEST(BenchdnnDescriptor, BlankAndCommentLinesGiveNothing) {
  for (const char *line : {"", "   \t", "\r\n", "# basic shapes:",
                           R"(#g17ic17oc17_id8od4kd3pd1sd2_n"3d_conv:depthwise_stride_tail")"}) {
    const BenchdnnLine result = parse_benchdnn_line(line);
    EXPECT_FALSE(result.problem) << line;
    EXPECT_EQ(result.skip_reason, "") << line;
    EXPECT_EQ(result.name, "") << line;
  }
  // A comment after a descriptor, a '#' inside a quoted name, CR LF line ends.
  EXPECT_EQ(parsed("  mb1ic2ih7oc4kh3   # trailing comment"), "mb1ic2ih7iw7oc4kh3kw3");
  EXPECT_EQ(parse_benchdnn_line(R"(mb1ic2ih7oc4kh3n"run#2" # comment)").name, "run#2");
  EXPECT_EQ(parsed("mb1ic2ih7oc4kh3\r\n"), "mb1ic2ih7iw7oc4kh3kw3");
}

TEST(BenchdnnDescriptor, KeyRepeatedWithTheSameValueIsAccepted) {
  // Verbatim from oneDNN inputs/conv/shapes_regression_padding, which gives kh twice. oh = (10 - 5 + 14)/1 + 1
  // = 20, pad_end = 19 - 10 + 5 - 7 = 7.
  EXPECT_EQ(parsed("mb1ic16oc16_ih10kh5_kh5ph7sh1"), "mb1ic16ih10iw10oc16kh5kw5pt7pb7pl7pr7");
}

TEST(BenchdnnDescriptor, GroupsAndBatchAreLeftToValidate) {
  // g3 does not divide ic4: parsed as written; validate() is the one to refuse it. Same for mb0.
  const BenchdnnLine line = parse_benchdnn_line("g3ic4ih5oc3kh3");
  ASSERT_TRUE(line.problem);
  EXPECT_EQ(format_descriptor(*line.problem), "g3mb2ic4ih5iw5oc3kh3kw3");
  EXPECT_THROW(validate(*line.problem), InputError);
  EXPECT_EQ(parsed("mb0ic4ih5oc3kh3"), "mb0ic4ih5iw5oc3kh3kw3");
}

TEST(BenchdnnDescriptor, MalformedDescriptorsQuoteTheWholeLine) {
  const std::pair<const char *, const char *> cases[] = {
      {"ic3ih5oc3kh3xx2", "unknown key 'xx' in benchdnn descriptor 'ic3ih5oc3kh3xx2'"},
      {"ic3ih5oc3kh", "missing value for key 'kh' in benchdnn descriptor 'ic3ih5oc3kh'"},
      {"ic3ih_oc3kh3", "missing value for key 'ih' in benchdnn descriptor 'ic3ih_oc3kh3'"},
      {"ic3ic4ih5oc3kh3",
       "key 'ic' given twice with different values 3 and 4 in benchdnn descriptor 'ic3ic4ih5oc3kh3'"},
      {"ih5oc3kh3", "missing key 'ic' in benchdnn descriptor 'ih5oc3kh3'"},
      {"ic3ih5kh3", "missing key 'oc' in benchdnn descriptor 'ic3ih5kh3'"},
      {"ic3oc3kh3", "missing key 'ih' in benchdnn descriptor 'ic3oc3kh3'"},
      {"ic3ih5oc3", "missing key 'kh' in benchdnn descriptor 'ic3ih5oc3'"},
      {"ic3oc3iw5", "missing key 'kw' in benchdnn descriptor 'ic3oc3iw5'"},
      {"ic3oc3ow5kw3", "missing key 'iw' in benchdnn descriptor 'ic3oc3ow5kw3'"},
      {"ic3oc3", "no spatial keys (give ih and kh; iw and kw for 1-D; id and kd for 3-D) in benchdnn descriptor "
                 "'ic3oc3'"},
      {"ic3ih5iw6oc3kh3", "missing key 'kw' (benchdnn copies the width keys from the height ones only when none "
                          "is given) in benchdnn descriptor 'ic3ih5iw6oc3kh3'"},
      {"ic0ih5oc3kh3", "key 'ic' must be positive in benchdnn descriptor 'ic0ih5oc3kh3'"},
      {"g0ic3ih5oc3kh3", "key 'g' must be positive in benchdnn descriptor 'g0ic3ih5oc3kh3'"},
      {"ic3ih0oc3kh3", "key 'ih' must be positive in benchdnn descriptor 'ic3ih0oc3kh3'"},
      {"ic3ih5oc3kh3sh0", "key 'sh' must be positive in benchdnn descriptor 'ic3ih5oc3kh3sh0'"},
      {"ic3ih5oc3kh3ph-1", "key 'ph' must not be negative in benchdnn descriptor 'ic3ih5oc3kh3ph-1'"},
      {"ic3ih5oc3kh3sh1000000000",
       "value of key 'sh' is too large (at most 999999999) in benchdnn descriptor 'ic3ih5oc3kh3sh1000000000'"},
      {"ic3 ih5oc3kh3", "unexpected character ' ' at offset 3 in benchdnn descriptor 'ic3 ih5oc3kh3'"},
      {"IC3ih5oc3kh3", "unexpected character 'I' at offset 0 in benchdnn descriptor 'IC3ih5oc3kh3'"},
      // oh = (2 - 5)/1 + 1 = -2: benchdnn refuses a non-positive computed output too.
      {"ic1oc1ih2kh5", "computed oh -2 is not positive in benchdnn descriptor 'ic1oc1ih2kh5'"},
      {"ic1oc1id2kd5", "computed od -2 is not positive in benchdnn descriptor 'ic1oc1id2kd5'"},
      // 3-D: sanitize_desc takes height and width entries both or neither.
      {"ic3oc3id5kd3ih5kh3", "3-D descriptor gives height keys but no width keys (benchdnn takes both or neither) "
                             "in benchdnn descriptor 'ic3oc3id5kd3ih5kh3'"},
      {"ic3oc3id5kd3iw5kw3", "3-D descriptor gives width keys but no height keys (benchdnn takes both or neither) "
                             "in benchdnn descriptor 'ic3oc3id5kd3iw5kw3'"},
      {"ic3oc3id5", "missing key 'kd' in benchdnn descriptor 'ic3oc3id5'"},
      {"ic3oc3id5kd3ih5iw5kw3", "missing key 'kh' (benchdnn copies the height and width keys from the depth ones "
                                "only when none is given) in benchdnn descriptor 'ic3oc3id5kd3ih5iw5kw3'"},
      {"ic3oc3id5kd3sd0", "key 'sd' must be positive in benchdnn descriptor 'ic3oc3id5kd3sd0'"},
      // The quoted text is the descriptor without its comment and blanks.
      {"  ic3ih5oc3kh  # broken", "missing value for key 'kh' in benchdnn descriptor 'ic3ih5oc3kh'"},
  };
  for (const auto &[line, message] : cases) EXPECT_EQ(parse_error(line), message) << line;
}

RC_GTEST_PROP(BenchdnnDescriptor, FullLineWrittenFromAnyProblemKeepsItsOutputSize, ()) {
  // Every key of the problem's own axes spelled out, as benchdnn prints a canonical descriptor (a 1-D problem gets
  // width keys only, a 2-D one height and width keys). convcheck's P = (H + pt + pb - ext)/s + 1 lets pb carry
  // up to s - 1 unused rows; benchdnn's derived pad_end is the smallest pb giving that P, negative or not. So the
  // parsed problem equals the generated one except for layouts/dtype (defaults) and the end paddings, which shrink
  // by less than the stride.
  Problem config = *convs(); // a conv line (benchdnn's deconv driver is not read yet)
  // benchdnn cannot write a negative padding; a negative begin padding moves to the end, which keeps every
  // output size (the sum is what counts), so every generated problem stays usable.
  for (SpatialAxis &axis : config.axes)
    if (axis.pad_begin < 0) axis.pad_end += std::exchange(axis.pad_begin, 0);
  std::string line = fmt::format("g{}mb{}_ic{}oc{}", config.groups, config.batch, config.in_channels,
                                 config.out_channels);
  constexpr char letters[max_ndims] = {'d', 'h', 'w'};
  for (int64_t a = config.first_axis(); a < max_ndims; ++a) {
    const SpatialAxis &axis = config.axes[static_cast<size_t>(a)];
    line += fmt::format("_i{0}{1}o{0}{2}k{0}{3}s{0}{4}p{0}{5}d{0}{6}", letters[a], axis.in, axis.out(), axis.kernel,
                        axis.stride, axis.pad_begin, axis.dilation - 1);
  }
  const BenchdnnLine parsed_line = parse_benchdnn_line(line);
  RC_ASSERT(parsed_line.problem.has_value());
  const Problem &parsed_problem = *parsed_line.problem;
  Problem expected = config;
  expected.data_layout = DataLayout::ncx;
  expected.weight_layout = WeightLayout::oix;
  expected.precision = Precision::uniform(DType::float32);
  bool dropped = false, negative = false;
  for (size_t a = 0; a < max_ndims; ++a) {
    expected.axes[a].pad_end = parsed_problem.axes[a].pad_end;
    const int64_t shrink = config.axes[a].pad_end - parsed_problem.axes[a].pad_end;
    RC_ASSERT(shrink >= 0);
    RC_ASSERT(shrink < config.axes[a].stride);
    RC_ASSERT(parsed_problem.axes[a].out() == config.axes[a].out());
    dropped = dropped || shrink != 0;
    negative = negative || parsed_problem.axes[a].pad_end < 0;
  }
  RC_CLASSIFY(dropped, "unused end padding dropped");
  RC_CLASSIFY(negative, "negative derived padding");
  RC_TAG(std::to_string(parsed_problem.ndims) + "-D");
  RC_ASSERT(parsed_problem == expected);
  RC_ASSERT(is_valid(parsed_problem));
}

// oneDNN's own lists, copied verbatim under tests/core/problem/benchdnn/ (README.md there says from where).

} // namespace
} // namespace convcheck

namespace convcheck {
namespace {

// benchdnn's --dt (oneDNN 3.x) and --cfg (older) lines set the formats of the descriptor lines after them; what
// convcheck cannot compute (integer formats, lists) is refused with the reason.
TEST(BenchdnnPrecision, DtAndCfgLinesSetTheFormats) {
  const DType f32 = DType::float32, f64 = DType::float64, bf16 = DType::bfloat16, f16 = DType::float16;
  auto precision = [](const std::string &line) { return *parse_benchdnn_line(line).precision->precision; };
  EXPECT_EQ(precision("--dt=bf16"), (Precision{bf16, bf16, bf16, f32}));
  EXPECT_EQ(precision("--dt=bf16:bf16:f32  # comment"), (Precision{bf16, bf16, f32, f32}));
  EXPECT_EQ(precision("--dt=f16"), (Precision{f16, f16, f16, f32}));
  EXPECT_EQ(precision("--dt=f64"), (Precision{f64, f64, f64, f64}));
  EXPECT_EQ(precision("--cfg=bf16bf16f32"), (Precision{bf16, bf16, f32, f32}));
  EXPECT_EQ(precision("--cfg=f16f16f16"), (Precision{f16, f16, f16, f32}));
  EXPECT_EQ(parse_benchdnn_line("--dt=u8:s8:u8").precision->refusal,
            "--dt=u8:s8:u8 is not f32, f64, bf16 or f16 for src, weights and dst (integer formats and lists are not "
            "supported)");
  EXPECT_FALSE(parse_benchdnn_line("--dt=f32 --dir=FWD_B").precision.has_value());
  EXPECT_FALSE(parse_benchdnn_line("--mb=2").precision.has_value());
}

} // namespace
} // namespace convcheck
