#pragma once
// Long reductions, made on purpose. An element of a bfloat16 problem must sum more than 256 products, of a float16
// one more than 2048, before a partial sum kept in that format has to round (what the accumulation-witness fill,
// core/numerics/fill.hpp, shows), and kernels switch paths at such lengths (split-K blocks, chunked accumulators)
// in every format. The generator's own sizes rarely get there (about 3% of bfloat16 problems, 5 of 150 in
// tests/oracles/witness_fill_test.cpp before this), so a share of every row's problems is stretched: one
// direction's reduction is made long while the other sizes are kept small, so the case stays cheap.
//   output       sums C/G * kernel volume terms: the input channels per group grow;
//   grad_data    sums K/G * kernel volume:        the output channels per group grow;
//   grad_weight  sums N * output volume:           the batch grows.

#include <cstdint>

#include "core/problem/direction.hpp"
#include "core/problem/problem.hpp"

namespace convcheck {

/// The terms past which a partial sum leaves the problem's narrowest storage format's exact integer range (257 for
/// bfloat16, 2049 for float16); 0 for a problem with no narrow storage or a narrow accumulation.
int64_t witness_terms(const Problem &problem);

/// The most terms an element of `direction` sums, padding aside: C/G * kernel volume, K/G * kernel volume, or
/// N * output volume.
int64_t reduction_terms(const Problem &problem, Direction direction);

/// Makes `direction`'s reduction at least `terms` long, keeping the other sizes of the work small (at most 8
/// multiply-adds per term).
void reach_terms(Problem &problem, Direction direction, int64_t terms);

/// The lengths a focused campaign stretches a reduction past (core/run/focus.cpp), whatever the formats: 257, where
/// a bfloat16 partial sum first rounds and kernels start a second block of K (256 is a common split), and 2,049,
/// where a float16 one does and the longest K blocks end.
inline constexpr int64_t long_reduction_lengths[] = {257, 2049};

} // namespace convcheck
