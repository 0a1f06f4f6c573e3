#pragma once
// RapidCheck generators for convolution problems. Every generated config is valid by construction (C and K are
// built as multiples of G; padding is raised just enough for a non-empty output), so nothing is filtered away.
//
// The distribution is biased to the corners where conv bugs live, each reached in a few percent of cases or
// more (tests/core/generators_test.cpp measures it): one input channel, depthwise (G = C = K), G > 1 with
// C/G != K/G, 1x1 kernels, kernels larger than the input, stride larger than the kernel, dilation with stride,
// padding on one side only, H != W, every data/weight layout pair, batch 1 and batch > 1. Sizes stay small
// (spatial <= 12, kernel <= 5, channels per group <= 8) so a case costs microseconds.

#include <cstdint>

#include <rapidcheck.h>

#include "core/conv_config.hpp"

namespace convcheck {

/// Valid float32 configs from the default fuzz distribution (float64 in about one case in eight).
rc::Gen<ConvConfig> conv_configs();

/// Case `case_index` of a campaign seeded with `seed`: a pure function of both, independent of threads.
ConvConfig generate_config(uint64_t seed, uint64_t case_index);

} // namespace convcheck
