// A process forked after its parent ran oneDNN (a campaign's save child shrinking a crash, say) runs oneDNN through a
// server: oneDNN 3.x's SYCL runtime keeps threads a fork does not copy, so in the child its first primitive would
// wait forever (measured: a worker forked after the warm-up hung on its first case).

#include <string>

#include <gtest/gtest.h>

#include "core/numerics/case.hpp"
#include "core/problem/descriptor.hpp"
#include "core/process/forked.hpp"
#include "core/process/wire.hpp"
#include "oracles/onednn/isa_server.hpp"
#include "oracles/onednn/memory.hpp"
#include "oracles/onednn/onednn.hpp"

namespace convcheck {
namespace {

TEST(OnednnFork, AChildOfAProcessThatRanOneDnnGetsTheSameResultsThroughAServer) {
  const Case c = make_case(parse_descriptor("mb2ic4ih6iw6oc8kh3kw3pt1pl1"), FillMode::exact, 7, 3);
  const RunResults here = onednn_results_under("", c, OnednnPath::blocked, OnednnAlgorithm::direct, false);
  ASSERT_TRUE(cpu_engine_usable_here());
  const ForkedEnd child = run_forked({[&] {
                                       if (cpu_engine_usable_here()) return std::string("usable in the child");
                                       const RunResults there = onednn_results_under(
                                           "", c, OnednnPath::blocked, OnednnAlgorithm::direct, false);
                                       for (const auto &[direction, run] : there)
                                         if (!run.error.empty() || run.result.empty() ||
                                             run.result.byte_size() != here.at(direction).result.byte_size() ||
                                             std::memcmp(run.result.bytes(), here.at(direction).result.bytes(),
                                                         run.result.byte_size()) != 0)
                                           return to_string(direction) + " differs: " + run.error;
                                       return std::string("same");
                                     }},
                                     1, 60)[0];
  ASSERT_TRUE(child.returned()) << child.termination.describe();
  EXPECT_EQ(child.payload, "same");
}

} // namespace
} // namespace convcheck
