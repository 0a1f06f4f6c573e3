#pragma once
// The naive loops (core/naive_loops.hpp) run in the case dtype: what a straightforward implementation computes.

#include "core/conv_case.hpp"
#include "core/direction.hpp"
#include "core/tensor.hpp"

namespace convcheck {

/// `direction` computed by the naive loops in the case dtype with the geometry of `config` (normally
/// conv_case.config; injected bugs pass a perturbed one), reading the inputs of `conv_case` in their own shapes.
Tensor naive_result(const ConvConfig &config, const ConvCase &conv_case, Direction direction);

} // namespace convcheck
