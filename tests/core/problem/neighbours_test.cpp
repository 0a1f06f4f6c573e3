// The neighbours of a minimal case: each field one step each way, and each seam the seam tier draws around crossed
// (core/problem/seam_draws.cpp), so that a table run on them says where a kernel's tail or block starts.

#include <algorithm>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/problem/descriptor.hpp"
#include "core/problem/neighbours.hpp"

namespace convcheck {
namespace {

std::vector<std::string> changes(const std::string &descriptor) {
  std::vector<std::string> found;
  for (const Neighbour &neighbour : neighbours_of(parse_descriptor(descriptor))) found.push_back(neighbour.change);
  return found;
}

bool has(const std::vector<std::string> &found, const std::string &change) {
  return std::find(found.begin(), found.end(), change) != found.end();
}

TEST(Neighbours, CrossTheNearestSeamsAboveAndBelow) {
  // One input channel: one step (2), and the channel seams at 8 and 16 from just below and at them.
  const std::vector<std::string> small = changes("mb1ic1iw3oc2kw1");
  for (const char *change : {"in_channels 2", "in_channels 7", "in_channels 8", "in_channels 15"})
    EXPECT_TRUE(has(small, change)) << change;
  EXPECT_TRUE(has(small, "in_channels 16"));
  EXPECT_FALSE(has(small, "in_channels 32"));
  EXPECT_TRUE(has(small, "batch 8")); // the batch seam (8 images)
  // 40 output channels: the seam above (64, and 63) and the one below (32, and 33 past it).
  const std::vector<std::string> wide = changes("mb1ic1iw3oc40kw1");
  for (const char *change : {"out_channels 39", "out_channels 41", "out_channels 63", "out_channels 64",
                             "out_channels 32", "out_channels 33"})
    EXPECT_TRUE(has(wide, change)) << change;
  // Per group: 2 groups of 1 input channel cross at 7 and 8, 15 and 16 per group.
  const std::vector<std::string> grouped = changes("g2mb1ic2iw3oc2kw1");
  for (const char *change : {"in_channels 14", "in_channels 16", "in_channels 30", "in_channels 32"})
    EXPECT_TRUE(has(grouped, change)) << change;
}

TEST(Neighbours, AreEachListedOnce) {
  const std::vector<Neighbour> found = neighbours_of(parse_descriptor("mb1ic17iw3oc17kw1"));
  for (size_t i = 0; i < found.size(); ++i)
    for (size_t j = i + 1; j < found.size(); ++j) EXPECT_NE(found[i].problem, found[j].problem) << found[j].change;
  const std::vector<std::string> seventeen = changes("mb1ic17iw3oc17kw1");
  EXPECT_EQ(std::count(seventeen.begin(), seventeen.end(), "in_channels 16"), 1);
}

} // namespace
} // namespace convcheck
