#include "core/run/skip_tally.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

namespace convcheck {
namespace {

// A full tally that is merged with a more frequent reason keeps that reason by name and counts the rarest one under
// "(other reasons)": a summary of a whole strategy (its directions summed) names what skipped most of its cases.
TEST(SkipTally, MergingKeepsTheMostFrequentReasonsByName) {
  SkipReasons output;
  for (size_t i = 0; i < max_skip_reasons; ++i) add_skip_reason(output, fmt::format("rare reason {}", i), 1 + i);
  SkipReasons gradient;
  add_skip_reason(gradient, "no gradient operators", 1000);

  SkipReasons whole;
  add_skip_reasons(whole, output);
  add_skip_reasons(whole, gradient);

  EXPECT_EQ(whole.at("no gradient operators"), 1000);
  EXPECT_EQ(whole.at(other_skip_reasons), 1); // "rare reason 0", the rarest, made room
  EXPECT_EQ(whole.count("rare reason 0"), 0u);
  EXPECT_EQ(describe_skip_reasons(whole, 1), fmt::format("1000 x no gradient operators; and {} more reasons",
                                                         whole.size() - 1));
}

// A reason no more frequent than the rarest kept is counted with the others: the tally never grows past its cap.
TEST(SkipTally, AFullTallyCountsRareNewReasonsTogether) {
  SkipReasons reasons;
  for (size_t i = 0; i < max_skip_reasons; ++i) add_skip_reason(reasons, fmt::format("reason {}", i));
  for (int i = 0; i < 100; ++i) add_skip_reason(reasons, fmt::format("worded differently each time {}", i));
  EXPECT_EQ(reasons.size(), max_skip_reasons + 1);
  EXPECT_EQ(reasons.at(other_skip_reasons), 100);
}

} // namespace
} // namespace convcheck
