#pragma once
// Hand-picked edge configs every strategy is tested on, and the check that a strategy agrees with the reference
// on them (bit for bit in exact fill, where the bound is zero; within the sound bound in normal fill).

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/problem/problem.hpp"
#include "core/numerics/fill.hpp"

namespace convcheck::testing {

struct EdgeConfig {
  std::string name;
  std::string descriptor;
};

/// The edge configs of one rank (1, 2 or 3): unit everything; kernel larger than input with padding; stride >
/// kernel; dilation with stride; depthwise; G with C/G != K/G; one-sided padding; unequal spatial sizes; each in
/// every layout pair of the rank and both formats. With `crops`, also negative padding (crops) of that rank.
std::vector<EdgeConfig> edge_configs(int64_t ndims = 2, bool crops = false);

/// The deconv edge configs of one rank: the transpose of every edge config above (core/problem/op.hpp's
/// `transposed`: output_padding the remainder the conv's stride drops, or another allowed one), plus deconvs with
/// output_padding where end padding lets taps reach its rows, and with output_padding below a dilation larger
/// than the stride.
std::vector<EdgeConfig> deconv_edge_configs(int64_t ndims = 2, bool crops = false);

/// Runs `strategy` on every direction of the config and returns the failures (empty: agreed). A direction the
/// strategy declares unsupported is a failure unless `allow_skips`.
std::vector<std::string> disagreements(const std::string &strategy, const std::string &descriptor, FillMode fill,
                                       bool allow_skips = false);

/// Same for an injected strategy on a config where it must fail: returns true when some direction fails.
bool fails_somewhere(const std::string &strategy, const std::string &descriptor, FillMode fill);

} // namespace convcheck::testing

/// The same on the deconv edge configs.
#define CONVCHECK_EXPECT_AGREES_ON_DECONV_EDGE_CONFIGS(strategy, ...)                                            \
  for (const auto &edge : ::convcheck::testing::deconv_edge_configs(__VA_ARGS__))                               \
    for (auto fill : {::convcheck::FillMode::exact, ::convcheck::FillMode::normal}) {                           \
      const auto problems = ::convcheck::testing::disagreements(strategy, edge.descriptor, fill);               \
      EXPECT_TRUE(problems.empty()) << edge.name << " " << edge.descriptor << " " << ::convcheck::to_string(fill) \
                                    << ": " << (problems.empty() ? "" : problems.front());                      \
    }

/// Asserts that strategy agrees with the reference on every edge config in both fills; optional arguments are
/// edge_configs' (rank, crops).
#define CONVCHECK_EXPECT_AGREES_ON_EDGE_CONFIGS(strategy, ...)                                                   \
  for (const auto &edge : ::convcheck::testing::edge_configs(__VA_ARGS__))                                      \
    for (auto fill : {::convcheck::FillMode::exact, ::convcheck::FillMode::normal}) {                           \
      const auto problems = ::convcheck::testing::disagreements(strategy, edge.descriptor, fill);               \
      EXPECT_TRUE(problems.empty()) << edge.name << " " << edge.descriptor << " " << ::convcheck::to_string(fill) \
                                    << ": " << (problems.empty() ? "" : problems.front());                      \
    }
