// What `repro --emit benchdnn` prints reads back, through convcheck's own benchdnn reader, to the same problem.

#include "core/problem/benchdnn_writer.hpp"

#include <limits>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "core/problem/benchdnn_descriptor.hpp"
#include "core/problem/descriptor.hpp"
#include "core/input_error.hpp"
#include "core/problem/generators.hpp"
#include "core/problem/op.hpp"
#include "core/storage/case_file.hpp"

namespace convcheck {
namespace {

// The reader gives layouts and formats their defaults; the descriptor carries only the geometry.
Problem geometry_of(Problem problem) {
  problem.data_layout = DataLayout::ncx;
  problem.weight_layout = WeightLayout::oix;
  problem.precision = Precision{};
  return problem;
}

TEST(BenchdnnWriter, SpellsTheProblemAsBenchdnnPrintsIt) {
  EXPECT_EQ(benchdnn_descriptor(parse_descriptor("mb2ic4ih12iw6oc5kh1kw1sw2_nhwc")),
            "mb2_ic4oc5_ih12oh12kh1sh1dh0ph0_iw6ow3kw1sw2dw0pw0");
  EXPECT_EQ(benchdnn_descriptor(parse_descriptor("g2mb1ic4id3ih5iw7oc6kd1kh3kw2sh2dlw3pt1pb-1")),
            "mb1_g2ic4oc6_id3od3kd1sd1dd0pd0_ih5oh2kh3sh2dh0ph1_iw7ow4kw2sw1dw2pw0");
  EXPECT_EQ(benchdnn_descriptor(parse_descriptor("mb1ic2iw9oc3kw3pr2")), "mb1_ic2oc3_iw9ow9kw3sw1dw0pw0");
}

TEST(BenchdnnWriter, NamesLayoutsWithOneDnnsTags) {
  EXPECT_EQ(benchdnn_data_tag(DataLayout::ncx, 2), "abcd");
  EXPECT_EQ(benchdnn_data_tag(DataLayout::nxc, 2), "acdb");
  EXPECT_EQ(benchdnn_data_tag(DataLayout::nxc, 1), "acb");
  EXPECT_EQ(benchdnn_data_tag(DataLayout::nxc, 3), "acdeb");
  EXPECT_EQ(benchdnn_weight_tag(WeightLayout::oix, false, 2), "abcd");
  EXPECT_EQ(benchdnn_weight_tag(WeightLayout::xio, false, 2), "cdba");
  EXPECT_EQ(benchdnn_weight_tag(WeightLayout::oxi, false, 2), "acdb");
  EXPECT_EQ(benchdnn_weight_tag(WeightLayout::xio, true, 2), "decab");  // oneDNN's hwigo
  EXPECT_EQ(benchdnn_weight_tag(WeightLayout::oxi, true, 2), "abdec");  // gohwi
  EXPECT_EQ(benchdnn_weight_tag(WeightLayout::oix, true, 3), "abcdef"); // goidhw
  EXPECT_EQ(benchdnn_weight_tag(WeightLayout::xio, false, 1), "cba");   // wio
}

TEST(BenchdnnWriter, SpellsADeconvInItsOwnSizesWithTheOutputCarryingItsOutputPadding) {
  // Height: out = 4 * 2 - 1 - 1 + 2 + 1 + 1 = 10; width: out = 3 + 0 + 1 = 4.
  EXPECT_EQ(benchdnn_descriptor(parse_descriptor("mb1ic3ih5iw4oc2kh3kw1sh2pt1pb1oph1_deconv")),
            "mb1_ic3oc2_ih5oh10kh3sh2dh0ph1_iw4ow4kw1sw1dw0pw0");
  EXPECT_EQ(benchdnn_descriptor(parse_descriptor("g2mb2ic4iw6oc6kw3dlw3pr-2opw1_deconv")),
            "mb2_g2ic4oc6_iw6ow15kw3sw1dw2pw0"); // 5 + 2 + 3 * 2 + 1 + 1
}

TEST(BenchdnnWriter, NamesADeconvsWeightWithOneDnnsTagsForItsLogicalOrder) {
  // oneDNN's deconvolution weight is [G,] O, I, k... logically; convcheck's canonical deconv weight is
  // [C_in, C_out/G, k...], oneDNN's iohw / giohw (oracles/onednn/descs.cpp hands it so).
  EXPECT_EQ(benchdnn_weight_tag(WeightLayout::oix, false, 2, Op::deconv), "bacd");   // iohw
  EXPECT_EQ(benchdnn_weight_tag(WeightLayout::oix, true, 2, Op::deconv), "acbde");   // giohw
  EXPECT_EQ(benchdnn_weight_tag(WeightLayout::oix, false, 1, Op::deconv), "bac");    // iow
  EXPECT_EQ(benchdnn_weight_tag(WeightLayout::oix, true, 3, Op::deconv), "acbdef");  // giodhw
  EXPECT_EQ(benchdnn_weight_tag(WeightLayout::xio, false, 2, Op::deconv), "cdab");   // hwoi
  EXPECT_EQ(benchdnn_weight_tag(WeightLayout::oxi, false, 2, Op::deconv), "bcda");   // ihwo
  EXPECT_EQ(benchdnn_weight_tag(WeightLayout::oxi, true, 2, Op::deconv), "acdeb");   // g, i, h, w, o
}

TEST(BenchdnnWriter, RefusesACropAtTheBeginningWithTheProblem) {
  EXPECT_THROW(benchdnn_descriptor(parse_descriptor("mb1ic2iw9oc3kw3pl-1")), InputError);
}

// Every generated problem without a crop at the beginning reads back to itself, end padding as benchdnn derives it.
RC_GTEST_PROP(BenchdnnWriter, ReadsBackToTheSameProblem, ()) {
  const Problem problem = *convs(); // `--conv` lines (the deconv property is below)
  bool cropped_at_beginning = false;
  for (const SpatialAxis &axis : problem.axes) cropped_at_beginning |= axis.pad_begin < 0;
  RC_PRE(!cropped_at_beginning);
  const BenchdnnLine line = parse_benchdnn_line(benchdnn_descriptor(problem));
  RC_ASSERT(line.problem.has_value());
  RC_ASSERT(format_descriptor(*line.problem) == format_descriptor(geometry_of(with_derived_pad_end(problem))));
}

// Every deconv transposed from a drawn conv (valid by construction) without a crop at the beginning reads back through
// the deconv driver to itself, its end split as the reader splits it: the same deconv element for element.
RC_GTEST_PROP(BenchdnnWriter, ReadsADeconvBackToTheSameDeconv, ()) {
  const Problem problem = transposed(*convs(), *rc::gen::arbitrary<uint64_t>());
  bool cropped_at_beginning = false;
  for (const SpatialAxis &axis : problem.axes) cropped_at_beginning |= axis.pad_begin < 0;
  RC_PRE(!cropped_at_beginning);
  const BenchdnnLine line = parse_benchdnn_line(benchdnn_descriptor(problem), Op::deconv);
  RC_ASSERT(line.problem.has_value());
  const Problem expected = geometry_of(with_derived_pad_end(problem));
  RC_ASSERT(format_descriptor(*line.problem) == format_descriptor(expected));
  RC_ASSERT(equivalent_conv(expected) == equivalent_conv(geometry_of(problem)));
  RC_ASSERT(is_valid(*line.problem, std::numeric_limits<int64_t>::max()));
}

// The real findings of corpus/upstream/ (what `repro --emit benchdnn` prints for them) read back to their problems.
TEST(BenchdnnWriter, UpstreamFindingsReadBack) {
  for (const char *name : {"onednn-grad_weight-22d0a043a832b052.h5", "onednn-grad_weight-7e71acf0a1041df7.h5"}) {
    const Problem problem = read_case_file(std::string(CONVCHECK_SOURCE_DIR) + "/corpus/upstream/" + name).conv_case.problem;
    const BenchdnnLine line = parse_benchdnn_line(benchdnn_descriptor(problem));
    ASSERT_TRUE(line.problem.has_value()) << name;
    EXPECT_EQ(format_descriptor(*line.problem), format_descriptor(geometry_of(with_derived_pad_end(problem)))) << name;
  }
  // The crop's end padding comes back as benchdnn derives it: -2, not the case's -1, with the same single output.
  const Problem crop = read_case_file(std::string(CONVCHECK_SOURCE_DIR) +
                                      "/corpus/upstream/onednn-grad_weight-7e71acf0a1041df7.h5")
                           .conv_case.problem;
  EXPECT_EQ(format_descriptor(*parse_benchdnn_line(benchdnn_descriptor(crop)).problem), "mb1ic1ih3iw1oc1kh2kw1sh2pt1pb-2");
}

} // namespace
} // namespace convcheck
