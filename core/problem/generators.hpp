#pragma once
// RapidCheck generators for convolution problems. Every generated problem is valid by construction (C and K are
// built as multiples of G; padding is raised just enough for a non-empty output), so nothing is filtered away.
//
// The distribution is biased to the corners where conv bugs live, each reached in a few percent of cases or
// more (tests/core/problem/generators_test.cpp measures it): 1-D and 3-D problems (one case in five each), one
// input channel, depthwise (G = C = K), G > 1 with C/G != K/G, unit kernels, kernels larger than the input,
// stride larger than the kernel, dilation with stride, padding on one side only, negative padding (a crop),
// unequal spatial sizes, every data/weight layout pair, batch 1 and batch > 1. Sizes stay small (spatial <= 12,
// kernel <= 5, padding <= 3, channels per group <= 8; 3-D: spatial <= 7, kernel <= 3, padding <= 1) so a case costs
// microseconds and a 3-D reference is not mostly zeros.

#include <cstdint>

#include <rapidcheck.h>

#include "core/problem/problem.hpp"

namespace convcheck {

/// Valid problems from the default fuzz distribution (float32; float64 in about one case in eight).
rc::Gen<Problem> problems();

/// Case `case_index` of a campaign seeded with `seed`: a pure function of both, independent of threads.
Problem generate_problem(uint64_t seed, uint64_t case_index);

} // namespace convcheck
