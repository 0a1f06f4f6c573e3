#pragma once
// RapidCheck generators for convolution problems. Each field is drawn from its row of the field table
// (core/problem/fields.cpp: one distribution per size tier), and every problem is valid by construction (C and K
// are per-group counts times G; an output size drawn for an axis becomes the input size that gives it; padding is
// raised just enough for a non-empty output), so nothing is filtered away.
//
// Three size tiers (docs/distribution.md):
// - small, 98.5% of cases: spatial <= 12, kernel <= 5, padding <= 3, channels per group <= 8, groups <= 6, batch <=
//   3 (3-D: spatial <= 7, kernel <= 3, padding <= 1). A case costs microseconds, and shrinking ends here.
// - medium, 1.25%, and large, 0.25%: channels per group, groups and depthwise channels at block seams (2^k - 1, 2^k,
//   2^k + 1 for blocks of 8 to 128), output sizes around register blocks (8, 14, 16, 28, 32, 56), kernels up to 7
//   and 11, stride up to 5, dilation up to 4, batch up to 17. Each is trimmed to a work budget (multiply-adds over
//   every direction: 1 M medium, 4 M large), halving batch and spatial sizes before channels, so seams survive.
// In every tier the corners where conv bugs live come up in a few percent of cases or more
// (tests/core/problem/generators_test.cpp measures them): 1-D and 3-D problems (one case in five each), one input
// channel, depthwise, G > 1 with C/G != K/G, unit kernels, kernels larger than the input, stride larger than the
// kernel, dilation with stride, one-sided and negative padding, unequal spatial sizes, every layout pair, batch 1
// and batch > 1.

#include <cstdint>

#include <rapidcheck.h>

#include "core/problem/fields.hpp"
#include "core/problem/problem.hpp"

namespace convcheck {

/// Valid problems from the default fuzz distribution: every tier and rank; conv, deconv in about one case in four
/// (the op table's fuzz weights); float32, float64 in about one case in eight (the dtype table's fuzz weights).
rc::Gen<Problem> problems();

/// The same, from one tier only.
rc::Gen<Problem> problems(Tier tier);

/// The default distribution's convs alone (what its deconvs are transposed from): for properties of conv formulas.
rc::Gen<Problem> convs();

/// Convs alone from one tier.
rc::Gen<Problem> convs(Tier tier);

/// The seam tier alone (core/problem/seam_draws.hpp): small problems with one seam row's fields drawn large.
rc::Gen<Problem> seam_problems();

/// The seam tier's work budget: multiply-adds summed over every direction.
int64_t seam_tier_budget();

/// The work budget of `tier`: multiply-adds summed over every direction (0: none).
int64_t tier_budget(Tier tier);

/// Case `case_index` of a campaign seeded with `seed`: a pure function of both, independent of threads.
Problem generate_problem(uint64_t seed, uint64_t case_index);

} // namespace convcheck
