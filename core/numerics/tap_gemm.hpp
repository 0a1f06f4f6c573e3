#pragma once
// The reference's fast path: each direction as double-precision GEMMs per (group, image, kernel tap), with the
// sums of |products| for the error bound from a second GEMM on absolute values. It is written for the reference
// alone and shares no lowering with the strategies it judges (oracles/loops/im2col.cpp lowers every tap into one column
// matrix and GEMMs once; this never builds that matrix). With x the output positions of one image and t one tap
// (t, r, s), and X_t[c, x] = data[n, g*C/G + c, x*stride - pad + t*dilation] (0 where that lies outside the input):
//
//   output[n, g-block, :]      += W_t (K/G x C/G)  X_t (C/G x OD*P*Q)                 for every tap t
//   grad_data[n, g-block, :]   += scatter_t( W_t^T (C/G x K/G)  GO_n (K/G x OD*P*Q) )  for every tap t
//   grad_weight[g-block, :, t]  = sum_n GO_n (K/G x OD*P*Q)  X_t^T (OD*P*Q x C/G)
//
// where W_t[k, c] = weight[g*K/G + k, c, t], GO_n the group's rows of grad_output, and scatter_t adds element
// (c, x) into grad_data at x*stride - pad + t*dilation when that lies inside the input. When C/G is small (C/G * S
// <= 64) the S taps of a kernel row go to one GEMM together, their X_t stacked (and W_t side by side), so that the
// GEMM's inner dimension is C/G * S rather than C/G. Each element's terms are
// the definition's (core/numerics/naive_loops.hpp), in another order: the bound allows any order, and on exact
// fill every order gives the same double (tests/core/numerics/tap_gemm_test.cpp checks both against the loops).

#include <cstdint>

#include "core/problem/direction.hpp"
#include "core/problem/problem.hpp"

namespace convcheck {

/// Multiply-accumulates of one direction of `problem` counted as the GEMMs above do (padding taps included):
/// what this path costs, for choosing it over the loops.
int64_t tap_gemm_multiply_adds(const Problem &problem);

/// Below these (the smaller of C/G and K/G; multiply-adds per direction) a GEMM call's fixed cost and the gathers
/// outweigh what it speeds up, and the loops are faster (measured: docs/performance.md, "The reference").
inline constexpr int64_t tap_gemm_min_channels = 2;
inline constexpr int64_t tap_gemm_min_multiply_adds = 1 << 16;

/// Whether the GEMMs beat the definition loops on `problem`.
bool tap_gemm_pays_off(const Problem &problem);

/// Computes `direction` of `problem` into `value` and the sums of |products| into `magnitude` (both zeroed, the
/// canonical result shape), from the direction's two inputs in double (`a`, `b`: the roles of
/// info(direction).reads, canonical layout) and their absolute values.
void tap_gemm_direction(const Problem &problem, Direction direction, const double *a, const double *b,
                        const double *abs_a, const double *abs_b, double *value, double *magnitude);

} // namespace convcheck
