#include "core/problem/shrink.hpp"

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

TEST(Shrink, StopsAfterMaxTries) {
  const Problem start = parse_descriptor("g3mb3ic6ih9iw7oc9kh3kw2");
  const ShrinkResult result = shrink(start, [](const Problem &) { return true; }, 3);
  EXPECT_LE(result.tries, 3u);
}

} // namespace
} // namespace convcheck
