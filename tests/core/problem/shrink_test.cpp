#include "core/problem/shrink.hpp"
#include "core/problem/shrink_held.hpp"

#include <algorithm>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "core/problem/descriptor.hpp"
#include "core/problem/generators.hpp"
#include "core/input_error.hpp"

namespace convcheck {
namespace {

RC_GTEST_PROP(Shrink, EveryCandidateIsValidAndDifferent, ()) {
  const Problem config = *problems();
  auto candidates = shrink_problem(config);
  int count = 0;
  while (auto candidate = candidates.next()) {
    validate(*candidate);
    RC_ASSERT(!(*candidate == config));
    if (++count > 200) break;
  }
}

TEST(Shrink, ReachesTheSmallestConfigShowingABug) {
  // A bug visible only when bottom and left padding differ in a 2-D problem: the minimum is one pixel with one
  // padding.
  const Problem start = parse_descriptor("g3mb3ic6ih9iw7oc9kh3kw2sh2sw3dlh2pt1pb2pl0pr3_nhwc_ohwi");
  const ShrinkResult result = shrink(start, [](const Problem &c) {
    return c.ndims == 2 && c.height().pad_end != c.width().pad_begin;
  });
  EXPECT_EQ(format_descriptor(result.problem), "mb1ic1ih1iw1oc1kh1kw1pb1");
  EXPECT_GT(result.steps, 5u);
}

TEST(Shrink, LowersTheRankWhenTheBugShowsThere) {
  // A depth-stride bug needs a depth axis with stride > 1; a height-only bug drops the depth axis; a bug on any
  // axis with a crop ends 1-D.
  const Problem start = parse_descriptor("g2mb2ic4id5ih6iw7oc4kd3kh2kw3sd2sh2pfr1pt-1pl1");
  EXPECT_EQ(format_descriptor(shrink(start, [](const Problem &c) { return c.ndims == 3 && c.depth().stride > 1; })
                                  .problem),
            "mb1ic1id1ih1iw1oc1kd1kh1kw1sd2");
  EXPECT_EQ(format_descriptor(shrink(start, [](const Problem &c) {
                                return std::any_of(c.axes.begin(), c.axes.end(),
                                                   [](const SpatialAxis &a) { return a.pad_begin < 0; });
                              }).problem),
            "mb1ic1iw2oc1kw1pl-1");
}

TEST(Shrink, KeepsWhatTheBugNeeds) {
  const Problem start = parse_descriptor("g4mb2ic8ih9iw9oc12kh3kw3sh2dlh2_nhwc");
  const ShrinkResult result = shrink(start, [](const Problem &c) {
    return c.groups > 1 && c.height().stride > 1 && c.data_layout == DataLayout::nxc;
  });
  EXPECT_EQ(format_descriptor(result.problem), "g2mb1ic2ih1iw1oc2kh1kw1sh2_nhwc");
}

RC_GTEST_PROP(Shrink, OutputHeldStepsKeepTheOutputSizeAndComeNearer, ()) {
  const Problem config = *problems();
  for (int64_t a = config.first_axis(); a < max_ndims; ++a)
    for (const Problem &step : output_held_steps(config, a)) {
      validate(step);
      RC_ASSERT(step.out_size(a) == config.out_size(a));
      RC_ASSERT(distance_from_neutral(step.axes[static_cast<size_t>(a)]) <
                distance_from_neutral(config.axes[static_cast<size_t>(a)]));
      for (int64_t other = 0; other < max_ndims; ++other)
        if (other != a) RC_ASSERT(step.axes[static_cast<size_t>(other)] == config.axes[static_cast<size_t>(other)]);
    }
}

// A bug where an axis's output is one element with a stride over 1 (issue 39): one field at a time stopped at
// mb1ic1iw5oc1kw3sw2dlw2, since every one-field step there changes the output width.
bool one_output_with_stride(const Problem &c) {
  for (int64_t a = c.first_axis(); a < max_ndims; ++a)
    if (c.out_size(a) == 1 && c.axes[static_cast<size_t>(a)].stride > 1) return true;
  return false;
}

TEST(Shrink, ReachesACornerDefinedByAnOutputSize) {
  EXPECT_EQ(format_descriptor(shrink(parse_descriptor("mb1ic1iw5oc1kw3sw2dlw2"), one_output_with_stride).problem),
            "mb1ic1iw1oc1kw1sw2");
  EXPECT_EQ(format_descriptor(
                shrink(parse_descriptor("g2mb2ic4ih7iw9oc6kh2kw3sh3sw2dlh2dlw2pt1pl-1pr1"), one_output_with_stride)
                    .problem),
            "mb1ic1iw1oc1kw1sw2");
}

TEST(Shrink, ReachesAnOutputSizeCornerOfADeconv) {
  // A deconv's output: (in - 1) * stride - pads + dilated kernel + output_padding; here (2 - 1) * 2 - 4 + 3 = 1.
  EXPECT_EQ(format_descriptor(shrink(parse_descriptor("mb1ic1iw2oc1kw3sw2pl2pr2_deconv"), [](const Problem &c) {
              return c.op == Op::deconv && one_output_with_stride(c);
            }).problem),
            "mb1ic1iw1oc1kw1sw2_deconv");
}

TEST(Shrink, StopsAfterMaxTries) {
  const Problem start = parse_descriptor("g3mb3ic6ih9iw7oc9kh3kw2");
  const ShrinkResult result = shrink(start, [](const Problem &) { return true; }, 3);
  EXPECT_LE(result.tries, 3u);
}

} // namespace
} // namespace convcheck
