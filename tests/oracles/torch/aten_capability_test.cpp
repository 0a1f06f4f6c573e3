// ATen's CPU capability, a dispatch setting: drawn per case beside ATen's own choice, checked against the host.

#include "oracles/torch/aten_capability.hpp"

#include <map>

#include <gtest/gtest.h>

#include "core/numerics/dispatch_setting.hpp"
#include "oracles/onednn/isa_caps.hpp"

namespace convcheck {
namespace {

// ATen's CPU capabilities: "" (ATen's own choice) for 5/8 of the cases and each capability the host can run for 1/8;
// default needs nothing, and an unknown one is named with the known ones.
TEST(AtenCapability, DrawnEachAnEighthBesideAtenOwnChoice) {
  std::map<std::string, int> drawn;
  for (uint64_t index = 0; index < 8000; ++index) ++drawn[drawn_setting(aten_capability_setting, 7, index)];
  const std::vector<std::string> host = host_aten_capabilities();
  ASSERT_FALSE(host.empty());
  EXPECT_EQ(host.front(), "default");
  EXPECT_EQ(drawn.size(), host.size() + 1);
  EXPECT_NEAR(drawn[""], 8000 - 1000 * static_cast<int>(host.size()), 250);
  for (const std::string &capability : host) EXPECT_NEAR(drawn[capability], 1000, 150) << capability;
  EXPECT_EQ(host_lacks_aten("avx9000"), "unknown ATen CPU capability 'avx9000' (known: default, avx2, avx512)");
  EXPECT_EQ(host_lacks_aten("avx512").empty(), host_lacks("avx512_core").empty()); // the same AVX-512 subset
  EXPECT_EQ(host_lacks_aten(""), ""); // ATen's own choice needs nothing
}

} // namespace
} // namespace convcheck
