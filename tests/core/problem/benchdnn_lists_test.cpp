// oneDNN's own benchdnn conv lists (verbatim copies in tests/core/problem/benchdnn/, with their provenance): every
// descriptor line gives a valid Problem, and chosen lines of each rank are checked field by field against benchdnn's
// formulas (see benchdnn_descriptor_test.cpp for the derivations).

#include "core/problem/benchdnn_descriptor.hpp"

#include <algorithm>
#include <fstream>
#include <regex>
#include <utility>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "core/problem/descriptor.hpp"
#include "core/input_error.hpp"

namespace convcheck {
namespace {

struct ListFacts {
  const char *name;
  int64_t ndims;       // the rank benchdnn gives every line of the list
  int64_t descriptors; // descriptor lines (the others are comments and blank lines)
};

// shapes_dilated_1d_* spell out unit depth and height keys (`kd1kh1kw3_id1ih1iw1_od1oh1ow1`), so benchdnn runs
// them as 3-D convolutions with unit outer axes, and so does convcheck.
constexpr ListFacts one_dnn_lists[] = {
    {"shapes_1d", 1, 31},
    {"shapes_1d_wavenet", 1, 13},
    {"shapes_3d", 3, 21},
    {"shapes_3d_1st_strided_padding", 3, 912},
    {"shapes_3d_1x1_strided_no-padding", 3, 48},
    {"shapes_3d_1x1_strided_padding", 3, 48},
    {"shapes_3d_1x1_unit-stride_no-padding", 3, 16},
    {"shapes_3d_1x1_unit-stride_padding", 3, 16},
    {"shapes_3d_2d_strided_padding", 3, 264},
    {"shapes_3d_gpu", 3, 8},
    {"shapes_3d_i3d", 3, 50},
    {"shapes_3d_resnext101", 3, 36},
    {"shapes_3d_strided_no-padding", 3, 192},
    {"shapes_3d_strided_padding", 3, 480},
    {"shapes_3d_unet", 3, 8},
    {"shapes_3d_unit-stride_no-padding", 3, 64},
    {"shapes_3d_unit-stride_padding", 3, 160},
    {"shapes_dilated_1d_1st_strided_padding", 3, 800},
    {"shapes_dilated_1d_strided_no-padding", 3, 2640},
    {"shapes_dilated_1d_strided_padding", 3, 324},
    {"shapes_dilated_1d_unit-stride_no-padding", 3, 660},
    {"shapes_dilated_1d_unit-stride_padding", 3, 2640},
};

std::vector<std::string> list_lines(const std::string &list) {
  const std::string path = std::string(CONVCHECK_SOURCE_DIR) + "/tests/core/problem/benchdnn/" + list;
  std::ifstream in(path);
  EXPECT_TRUE(in) << "cannot open " << path;
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

bool list_has_line(const std::string &list, const std::string &line) {
  const std::vector<std::string> lines = list_lines(list);
  return std::find(lines.begin(), lines.end(), line) != lines.end();
}

int64_t largest_tensor(const Problem &problem) {
  int64_t largest = 0;
  for (const Shape &shape : {problem.data_shape(), problem.weight_shape(), problem.output_shape()}) {
    int64_t count = 1;
    for (const int64_t extent : shape) count *= extent;
    largest = std::max(largest, count);
  }
  return largest;
}

TEST(BenchdnnDescriptor, EveryLineOfOneDnnListsGivesAValidProblem) {
  // Independent checks from the lines themselves: every output size the line gives (od/oh/ow) is the problem's,
  // and oneDNN's generator names the end padding it expects in many names (`_pd-back(-1)`, `_ph-bottom(-1)`,
  // `_pw-right(7)`), which must be the derived one.
  const std::regex given_output(R"((?:^|[_0-9])o([dhw])([0-9]+))");
  const std::regex named_pad_end(R"(_p([dhw])-(?:back|bottom|right)\((-?[0-9]+)\))");
  const std::string axis_letters = "dhw";
  std::vector<std::string> over_cap;
  int64_t named_pad_ends = 0, negative_lines = 0;
  for (const ListFacts &list : one_dnn_lists) {
    const std::vector<std::string> lines = list_lines(list.name);
    int64_t descriptors = 0;
    for (size_t number = 1; number <= lines.size(); ++number) {
      const std::string &text = lines[number - 1];
      const std::string where = fmt::format("{}:{}: {}", list.name, number, text);
      BenchdnnLine line;
      ASSERT_NO_THROW(line = parse_benchdnn_line(text)) << where;
      EXPECT_EQ(line.skip_reason, "") << where; // these lists have no option lines
      const size_t first = text.find_first_not_of(" \t\r");
      const bool descriptor = first != std::string::npos && text[first] != '#';
      ASSERT_EQ(line.problem.has_value(), descriptor) << where;
      if (!descriptor) continue;
      ++descriptors;
      const Problem &problem = *line.problem;
      EXPECT_EQ(problem.ndims, list.ndims) << where;
      if (largest_tensor(problem) > default_max_elements) {
        over_cap.push_back(fmt::format("{}:{}", list.name, number));
        EXPECT_NO_THROW(validate(problem, largest_tensor(problem))) << where;
        try {
          validate(problem);
          ADD_FAILURE() << "over the element cap but valid: " << where;
        } catch (const InputError &error) {
          EXPECT_NE(std::string(error.what()).find("elements, more than the limit"), std::string::npos) << where;
        }
      } else {
        EXPECT_NO_THROW(validate(problem)) << where;
      }
      bool negative = false;
      for (const SpatialAxis &axis : problem.axes) negative = negative || axis.pad_begin < 0 || axis.pad_end < 0;
      negative_lines += negative ? 1 : 0;
      const std::string keys = text.substr(0, text.find('n'));
      for (auto match = std::sregex_iterator(keys.begin(), keys.end(), given_output); match != std::sregex_iterator();
           ++match) {
        const size_t axis = axis_letters.find((*match)[1].str()[0]);
        EXPECT_EQ(problem.axes[axis].out(), std::stoll((*match)[2].str())) << where;
      }
      for (auto match = std::sregex_iterator(line.name.begin(), line.name.end(), named_pad_end);
           match != std::sregex_iterator(); ++match) {
        const size_t axis = axis_letters.find((*match)[1].str()[0]);
        EXPECT_EQ(problem.axes[axis].pad_end, std::stoll((*match)[2].str())) << where;
        ++named_pad_ends;
      }
    }
    EXPECT_EQ(descriptors, list.descriptors) << list.name;
  }
  // The one line over the 2^28-element cap: `g1_ic32oc1_id192kd192`, cubic, mb 2: data 2*32*192^3 = 452984832.
  EXPECT_EQ(over_cap, std::vector<std::string>{"shapes_3d:27"});
  // `grep -oE '_p[dhw]-(back|bottom|right)\(-?[0-9]+\)'` over the descriptor lines counts 6575 named end paddings.
  EXPECT_EQ(named_pad_ends, 6575);
  // Lines with a negative padding (2624 names say one, some lines two), each skipped before convcheck took crops;
  // counted by a separate script from the same formulas.
  EXPECT_EQ(negative_lines, 2539);
}

Problem problem_of(const std::string &line) {
  const BenchdnnLine parsed_line = parse_benchdnn_line(line);
  EXPECT_TRUE(parsed_line.problem) << line;
  return parsed_line.problem.value_or(Problem{});
}

// A Problem literal; `axes` lists depth, height, width, unit axes included.
Problem expected_problem(int64_t ndims, int64_t batch, int64_t groups, int64_t in_channels, int64_t out_channels,
                         std::array<SpatialAxis, max_ndims> axes) {
  return Problem{.op = Op::conv,
                 .ndims = ndims,
                 .batch = batch,
                 .groups = groups,
                 .in_channels = in_channels,
                 .out_channels = out_channels,
                 .axes = axes,
                 .data_layout = DataLayout::ncx,
                 .weight_layout = WeightLayout::oix,
                 .precision = Precision::uniform(DType::float32)};
}

SpatialAxis axis(int64_t in, int64_t kernel, int64_t stride, int64_t dilation, int64_t pad_begin, int64_t pad_end) {
  return SpatialAxis{in, kernel, stride, dilation, pad_begin, pad_end};
}

TEST(BenchdnnDescriptor, OneDnnOneDimensionalLinesFieldByField) {
  // conv1d:2: ow given, pw3: pad_end = 111*2 - 224 + 7 - 3 = 2. A 1-D problem: unit depth and height.
  const std::string conv1d_2 = R"(g1mb50ic3iw224oc64ow112kw7sw2pw3n"conv1d:2")";
  ASSERT_TRUE(list_has_line("shapes_1d", conv1d_2));
  const Problem strided = problem_of(conv1d_2);
  EXPECT_EQ(strided, expected_problem(1, 50, 1, 3, 64, {SpatialAxis{}, SpatialAxis{}, axis(224, 7, 2, 1, 3, 2)}));
  EXPECT_EQ(strided.width().out(), 112);
  EXPECT_EQ(format_descriptor(strided), "mb50ic3iw224oc64kw7sw2pl3pr2");
  // conv1d_gemm:1: dw2 is dilation 3, extent = 2*3 + 1 = 7; pad_end = 1*1 - 5 + 7 - 3 = 0; mb 2 by default.
  const std::string gemm = R"(ic8oc8_iw5ow2kw3sw1dw2pw3n"conv1d_gemm:1")";
  ASSERT_TRUE(list_has_line("shapes_1d", gemm));
  const Problem dilated = problem_of(gemm);
  EXPECT_EQ(dilated, expected_problem(1, 2, 1, 8, 8, {SpatialAxis{}, SpatialAxis{}, axis(5, 3, 1, 3, 3, 0)}));
  EXPECT_EQ(dilated.width().out(), 2);
}

TEST(BenchdnnDescriptor, OneDnnNegativeDerivedPaddingFieldByField) {
  // conv1d:15, no ow: ow = (121 - 6 + 0)/4 + 1 = 28 + 1 = 29, pad_end = 28*4 - 121 + 6 - 0 = -3: the last three
  // columns are read by no window, and convcheck crops them.
  const std::string conv1d_15 = R"(mb1ic32iw121oc32kw6pw0sw4n"conv1d:15")";
  ASSERT_TRUE(list_has_line("shapes_1d", conv1d_15));
  const Problem one_d = problem_of(conv1d_15);
  EXPECT_EQ(one_d, expected_problem(1, 1, 1, 32, 32, {SpatialAxis{}, SpatialAxis{}, axis(121, 6, 4, 1, 0, -3)}));
  EXPECT_EQ(one_d.width().out(), 29);
  EXPECT_NO_THROW(validate(one_d));
  // Depth keys only, so cubic: od = (56 - 3)/2 + 1 = 27, pad_end = 26*2 - 56 + 3 - 0 = -1 on every axis.
  const std::string cubic = R"(g3_ic6oc6_id56kd3sd2_n"3d_gconv_non-block_s2")";
  ASSERT_TRUE(list_has_line("shapes_3d", cubic));
  const Problem three_d = problem_of(cubic);
  const SpatialAxis cropped = axis(56, 3, 2, 1, 0, -1);
  EXPECT_EQ(three_d, expected_problem(3, 2, 3, 6, 6, {cropped, cropped, cropped}));
  EXPECT_EQ(three_d.output_shape(), (Shape{2, 6, 27, 27, 27}));
  // The generator's name says the back padding: pd_r = 0*3 - 2 + 2 - 2 = -2, a window of two rows [-2, 0)
  // entirely in the front padding. Height and width are unit axes spelled out: pad_end = 0 - 1 + 1 - 0 = 0.
  const std::string named =
      "mb1_ic1oc16_kd2kh1kw1_id2ih1iw1_od1oh1ow1_sd3sh1sw1_pd2ph0pw0_dd0dh0dw0"
      R"line(n"conv_3d_1st_strided_padding_4_pd-back(-2)")line";
  ASSERT_TRUE(list_has_line("shapes_3d_1st_strided_padding", named));
  const Problem back = problem_of(named);
  EXPECT_EQ(back, expected_problem(3, 1, 1, 1, 16, {axis(2, 2, 3, 1, 2, -2), SpatialAxis{}, SpatialAxis{}}));
  EXPECT_EQ(back.output_shape(), (Shape{1, 16, 1, 1, 1}));
  EXPECT_NO_THROW(validate(back));
}

TEST(BenchdnnDescriptor, OneDnnThreeDimensionalLinesFieldByField) {
  // vnet:conv1, every key given. Depth and height: pad_end = 31*2 - 64 + 2 - 0 = 0; width: 15*2 - 32 + 2 = 0.
  const std::string vnet = R"(g1ic32oc64_id64od32kd2sd2dd0pd0_ih64oh32kh2sh2dh0ph0_iw32ow16kw2sw2dw0pw0_n"vnet:conv1")";
  ASSERT_TRUE(list_has_line("shapes_3d", vnet));
  const Problem spelled = problem_of(vnet);
  EXPECT_EQ(spelled, expected_problem(3, 2, 1, 32, 64,
                                      {axis(64, 2, 2, 1, 0, 0), axis(64, 2, 2, 1, 0, 0), axis(32, 2, 2, 1, 0, 0)}));
  EXPECT_EQ(spelled.output_shape(), (Shape{2, 64, 32, 32, 16}));
  // 3d_conv_pad:1, no outputs: od = (10 - 3 + 2)/1 + 1 = 10, pad_end = 9 - 10 + 3 - 1 = 1; likewise 13 and 50.
  const std::string pad = R"(ic16oc16_ih13kh3ph1_iw50kw3pw1_id10kd3pd1_n"3d_conv_pad:1")";
  ASSERT_TRUE(list_has_line("shapes_3d", pad));
  const std::array<SpatialAxis, max_ndims> padded = {axis(10, 3, 1, 1, 1, 1), axis(13, 3, 1, 1, 1, 1),
                                                     axis(50, 3, 1, 1, 1, 1)};
  EXPECT_EQ(problem_of(pad), expected_problem(3, 2, 1, 16, 16, padded));
  // shapes_dilated_1d_*: unit depth and height spelled out, so 3-D. Width: dw3 is dilation 4, extent = 2*4 + 1 = 9,
  // pad_end = 0*2 - 1 + 9 - 1 = 7, as the name says.
  const std::string dilated =
      "mb1_ic1oc16_kd1kh1kw3_id1ih1iw1_od1oh1ow1_sd1sh1sw2_pd0ph0pw1_dd0dh0dw3"
      R"line(n"dilated_1d_1st_strided_padding_1_pw-right(7)")line";
  ASSERT_TRUE(list_has_line("shapes_dilated_1d_1st_strided_padding", dilated));
  EXPECT_EQ(problem_of(dilated),
            expected_problem(3, 1, 1, 1, 16, {SpatialAxis{}, SpatialAxis{}, axis(1, 3, 2, 4, 1, 7)}));
}

TEST(BenchdnnDescriptor, OneDnnLineOverTheElementCapIsParsedAndLeftToValidate) {
  // Cubic: od = (192 - 192)/1 + 1 = 1, pad_end = 0 - 192 + 192 - 0 = 0. The data tensor has mb 2 * ic 32 * 192^3
  // = 452984832 elements, over the default cap of 2^28 = 268435456; the weight has 32 * 192^3 = 226492416.
  const std::string large = R"(g1_ic32oc1_id192kd192_n"3d_conv_large_shape:2")";
  ASSERT_TRUE(list_has_line("shapes_3d", large));
  const Problem problem = problem_of(large);
  const SpatialAxis cube = axis(192, 192, 1, 1, 0, 0);
  EXPECT_EQ(problem, expected_problem(3, 2, 1, 32, 1, {cube, cube, cube}));
  try {
    validate(problem);
    ADD_FAILURE() << "validate() accepted a tensor over the cap";
  } catch (const InputError &error) {
    EXPECT_EQ(std::string(error.what()),
              "data tensor has 452984832 elements, more than the limit 268435456 (see --max-elements)");
  }
  EXPECT_NO_THROW(validate(problem, 452984832));
}

} // namespace
} // namespace convcheck
