#pragma once
// The naive loops (core/numerics/naive_loops.hpp) run in the case dtype: what a straightforward implementation computes.

#include "core/numerics/case.hpp"
#include "core/problem/direction.hpp"
#include "core/tensor/tensor.hpp"

namespace convcheck {

/// `direction` computed by the naive loops in the case dtype with the geometry of `config` (normally
/// conv_case.problem; injected bugs pass a perturbed one), reading the inputs of `conv_case` in their own shapes.
Tensor naive_result(const Problem &config, const Case &conv_case, Direction direction);

} // namespace convcheck
