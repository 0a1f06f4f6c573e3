// The ISA cap a case runs oneDNN under: drawn per case from (seed, case index), the host's highest for 7/8 of the
// cases and avx2 for 1/8 by default, each named cap alike with --isa-caps; a cap the host cannot run is refused.

#include "core/numerics/isa_cap.hpp"

#include <map>

#include <gtest/gtest.h>

#include "core/input_error.hpp"

namespace convcheck {
namespace {

std::map<std::string, int> shares(int cases) {
  std::map<std::string, int> drawn;
  for (int index = 0; index < cases; ++index) ++drawn[drawn_isa_cap(7, static_cast<uint64_t>(index))];
  return drawn;
}

TEST(IsaCap, DefaultDrawIsTheHostsHighestAndAvx2) {
  const std::vector<std::string> host = host_isa_caps();
  if (host.size() < 2 || host.back() == "avx2") GTEST_SKIP() << "this host has no cap above avx2";
  set_drawn_isa_caps("");
  std::map<std::string, int> drawn = shares(8000);
  EXPECT_EQ(drawn.size(), 2u);
  EXPECT_NEAR(drawn[host.back()], 7000, 200);
  EXPECT_NEAR(drawn["avx2"], 1000, 200);
  EXPECT_EQ(drawn_isa_cap(7, 123), drawn_isa_cap(7, 123)); // a function of (seed, case index): shrinking keeps it
}

TEST(IsaCap, NamedCapsAreDrawnAlike) {
  if (!host_lacks("avx2").empty() || !host_lacks("sse41").empty()) GTEST_SKIP() << host_lacks("avx2");
  set_drawn_isa_caps("sse41,avx2");
  std::map<std::string, int> drawn = shares(8000);
  set_drawn_isa_caps("");
  EXPECT_EQ(drawn.size(), 2u);
  EXPECT_NEAR(drawn["sse41"], 4000, 250);
  EXPECT_NEAR(drawn["avx2"], 4000, 250);
}

TEST(IsaCap, RefusesAnUnknownCapAndOneTheHostCannotRun) {
  try {
    set_drawn_isa_caps("avx2,avx9000");
    FAIL() << "no error";
  } catch (const InputError &error) {
    EXPECT_STREQ(error.what(), "--isa-caps avx2,avx9000: unknown ISA cap 'avx9000' (known: sse41, avx2, avx512_core, "
                               "avx512_core_bf16, avx512_core_amx)");
  }
  for (const IsaCap &cap : isa_caps())
    if (!host_lacks(cap.name).empty()) {
      EXPECT_EQ(host_lacks(cap.name).rfind("this host cannot run " + cap.name + " kernels: it lacks ", 0), 0u);
      EXPECT_THROW(set_drawn_isa_caps(cap.name), InputError);
    }
  set_drawn_isa_caps("");
}

} // namespace
} // namespace convcheck

namespace convcheck {
namespace {

// ATen's CPU capabilities: "" (ATen's own choice) for 5/8 of the cases and each capability the host can run for 1/8;
// default needs nothing, and an unknown one is named with the known ones.
TEST(AtenCapability, DrawnEachAnEighthBesideAtenOwnChoice) {
  std::map<std::string, int> drawn;
  for (uint64_t index = 0; index < 8000; ++index) ++drawn[drawn_aten_capability(7, index)];
  const std::vector<std::string> host = host_aten_capabilities();
  ASSERT_FALSE(host.empty());
  EXPECT_EQ(host.front(), "default");
  EXPECT_EQ(drawn.size(), host.size() + 1);
  EXPECT_NEAR(drawn[""], 8000 - 1000 * static_cast<int>(host.size()), 250);
  for (const std::string &capability : host) EXPECT_NEAR(drawn[capability], 1000, 150) << capability;
  EXPECT_EQ(host_lacks_aten("avx9000"), "unknown ATen CPU capability 'avx9000' (known: default, avx2, avx512)");
  EXPECT_EQ(host_lacks_aten("avx512").empty(), host_lacks("avx512_core").empty()); // the same AVX-512 subset
}

} // namespace
} // namespace convcheck
