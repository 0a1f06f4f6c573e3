#pragma once
// Deterministic inputs. Element i of tensor `role` in case `case_index` of a campaign seeded with `seed` is a
// pure function of (seed, case_index, role, i): a counter-based hash, not a stateful engine, so the values do
// not depend on the thread count or on the order cases are visited.
//
// Fill modes:
// - normal: standard normal floats, rounded to the tensor's format;
// - exact:  small non-zero integers in [-m, m], m chosen from the problem so that every sum of |products| stays
//           below the accumulation format's exact_sum_limit (2^24 for float32; benchdnn's idea). Then any
//           summation order is exact and strategies must agree bit for bit after the one rounding to the result's
//           format (the tolerance sees integer inputs and drops its bound to that rounding);
// - mixed:  a case-dependent choice between the two.

#include <cstdint>
#include <string>

#include "core/problem/direction.hpp"
#include "core/problem/problem.hpp"
#include "core/tensor/tensor.hpp"

namespace convcheck {

enum class FillMode { normal, exact, mixed };

std::string to_string(FillMode mode);
/// Throws InputError for anything but normal, exact or mixed.
FillMode parse_fill_mode(const std::string &text);

/// The mode a `mixed` campaign uses for this case (normal or exact); other modes are returned as they are.
FillMode resolve_fill_mode(FillMode mode, uint64_t seed, uint64_t case_index);

/// The largest integer magnitude exact fill uses for this problem (between 1 and the formats' max_exact_fill).
int64_t exact_fill_magnitude(const Problem &problem);

/// The input `role` of `problem` (its canonical shape, its storage format) filled per `mode` (normal or exact).
Tensor fill_tensor(const Problem &problem, Role role, FillMode mode, uint64_t seed, uint64_t case_index);

/// A tensor of `shape` in `dtype` filled per `mode` from stream `stream` of the case (for tests and tools that
/// need inputs outside a problem's roles); exact values use `magnitude`.
Tensor fill_values(DType dtype, const Shape &shape, FillMode mode, uint64_t seed, uint64_t case_index,
                   uint64_t stream, int64_t magnitude);

/// SplitMix64 finaliser: a bijective 64-bit mix. Exposed for other deterministic choices (generators, mixed).
uint64_t mix64(uint64_t x);

} // namespace convcheck
