#include "core/shrink.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "core/descriptor.hpp"
#include "core/generators.hpp"
#include "core/input_error.hpp"

namespace convcheck {
namespace {

RC_GTEST_PROP(Shrink, EveryCandidateIsValidAndDifferent, ()) {
  const ConvConfig config = *conv_configs();
  auto candidates = shrink_config(config);
  int count = 0;
  while (auto candidate = candidates.next()) {
    validate(*candidate);
    RC_ASSERT(!(*candidate == config));
    if (++count > 200) break;
  }
}

TEST(Shrink, ReachesTheSmallestConfigShowingABug) {
  // A bug visible only when bottom and left padding differ: the minimum is one pixel with one padding.
  const ConvConfig start = parse_descriptor("g3mb3ic6ih9iw7oc9kh3kw2sh2sw3dlh2pt1pb2pl0pr3_nhwc_ohwi");
  const ShrinkResult result =
      shrink(start, [](const ConvConfig &c) { return c.pad_bottom != c.pad_left; });
  EXPECT_EQ(format_descriptor(result.config), "mb1ic1ih1iw1oc1kh1kw1pb1");
  EXPECT_GT(result.steps, 5u);
}

TEST(Shrink, KeepsWhatTheBugNeeds) {
  const ConvConfig start = parse_descriptor("g4mb2ic8ih9iw9oc12kh3kw3sh2dlh2_nhwc");
  const ShrinkResult result = shrink(start, [](const ConvConfig &c) {
    return c.groups > 1 && c.stride_height > 1 && c.data_layout == DataLayout::nhwc;
  });
  EXPECT_EQ(format_descriptor(result.config), "g2mb1ic2ih1iw1oc2kh1kw1sh2_nhwc");
}

TEST(Shrink, StopsAfterMaxTries) {
  const ConvConfig start = parse_descriptor("g3mb3ic6ih9iw7oc9kh3kw2");
  const ShrinkResult result = shrink(start, [](const ConvConfig &) { return true; }, 3);
  EXPECT_LE(result.tries, 3u);
}

} // namespace
} // namespace convcheck
