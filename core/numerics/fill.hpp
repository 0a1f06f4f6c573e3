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
// - witness: positive integers in [1, m], m as for exact: every sum is exact in the accumulation format as above,
//           and with no cancellation every partial sum grows toward the full sum, so a reduction of more terms than
//           a narrow format holds as integers (bf16 256, f16 2048) drives its partial sums past that range. A
//           correct float32 accumulation stays exact and agrees bit for bit after the one rounding; one that keeps
//           its partial sums in bf16 or f16 rounds them and shows as a mismatch (PyTorch #68048: a bf16 gradient's
//           sum stalled at 256). Exact fill's random signs keep most partial sums near zero instead;
// - mixed:  a case-dependent choice: normal for half the cases, exact for 3/8, witness for 1/8; a problem with a
//           reduction past its witness length is witness in 3/4 of its cases, normal in the rest.
//
// Each mode may carry a special-value kind (subnormals, values near the largest finite, ties of the final rounding,
// signed zeros) on some of a case's tensors, where the mode's guarantees survive it: core/numerics/fill_special.hpp.

#include <cstdint>
#include <string>

#include "core/numerics/fill_special.hpp"
#include "core/problem/direction.hpp"
#include "core/problem/mix64.hpp"
#include "core/problem/problem.hpp"
#include "core/tensor/tensor.hpp"

namespace convcheck {

enum class FillMode { normal, exact, witness, mixed };

std::string to_string(FillMode mode);
/// Throws InputError for anything but normal, exact, witness or mixed.
FillMode parse_fill_mode(const std::string &text);

/// The mode a `mixed` campaign uses for this case (normal, exact or witness); other modes are returned as they are.
FillMode resolve_fill_mode(FillMode mode, uint64_t seed, uint64_t case_index);
/// The same for a case of `problem`: in a mixed campaign a problem with a reduction past its witness length
/// (core/problem/witness_reach.hpp) is a witness case three times in four (every integer case and half the normal
/// ones), the fill that shows what such a reduction risks (a narrow partial sum), rather than one in eight.
FillMode resolve_fill_mode(FillMode mode, uint64_t seed, uint64_t case_index, const Problem &problem);

/// The largest integer magnitude exact fill uses for this problem (between 1 and the formats' max_exact_fill).
int64_t exact_fill_magnitude(const Problem &problem);

/// The input `role` of `problem` (its canonical shape, its storage format) filled per `mode`, carrying the case's
/// special kind `special` (resolved: resolve_fill_special) where special_fill says this role does.
Tensor fill_tensor(const Problem &problem, Role role, FillMode mode, uint64_t seed, uint64_t case_index,
                   FillSpecial special = FillSpecial::none);

/// A tensor of `shape` in `dtype` filled per `mode` from stream `stream` of the case (for tests and tools that
/// need inputs outside a problem's roles); exact and witness values use `magnitude`, and `special` says what of a
/// special kind this tensor carries.
Tensor fill_values(DType dtype, const Shape &shape, FillMode mode, uint64_t seed, uint64_t case_index,
                   uint64_t stream, int64_t magnitude, const SpecialFill &special = {});

} // namespace convcheck
