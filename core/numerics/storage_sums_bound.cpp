// The bound of `direct:storage` (core/numerics/algorithm.hpp): direct summation whose partial sums are rounded to
// the result's format after every step, s_k = fl_r(s_{k-1} + a_k * b_k), as XNNPACK's f16 kernels compute on x86
// (a float32 FMA, then the sum converted to f16) and ARM's f16 arithmetic does natively. Each step is then one
// rounding of unit roundoff u_r (plus the float32 FMA's 2^-24, which the safety factor of 2 covers), so the result
// is an inner product computed in a format of unit roundoff u_r: Higham's (3.5) bound gamma_n(u_r) * sum|a_i b_i|.
// That is the reference's own bound (core/numerics/tolerance.hpp) with the result's format as the accumulation
// format, and nothing else changes: the stored result is the last partial sum, so no separate storage rounding.
// The limits are docs/bounds.md's: gamma_{n+1}(u) is finite only while (n + 1) * u < 1/2.
// With a named format (`direct:storage:bf16`) the sums are kept in it instead; a caller names one no wider than the
// result's, so the result is still the last partial sum, exactly stored.

#include <cmath>
#include <cstddef>

#include <fmt/format.h>

#include "core/numerics/algorithm_bound.hpp"

namespace convcheck {

AlgorithmBound storage_sums_bound(const Case &c, Direction direction, const DirectionReference &reference,
                                  std::optional<DType> sums_format) {
  const DType sums = sums_format.value_or(result_dtype(c.problem, direction));
  if (info(sums).unit_roundoff <= info(c.problem.precision.acc).unit_roundoff)
    return {reference.bound, 0, {},
            sums_format ? fmt::format("direct (sums in {}, no narrower than the accumulation's)", to_string(sums))
                        : "direct (sums in the result's format, no narrower than the accumulation's)"};
  Case narrowed{c.problem, {}, c.seed, c.case_index, c.fill, c.settings};
  narrowed.problem.precision.acc = sums;
  for (Role role : input_roles) narrowed[role] = c[role].clone();
  AlgorithmBound bound{compute_reference(narrowed, direction).bound, 0, {},
                       fmt::format("direct with sums in {}", to_string(sums))};
  for (double element : bound.element)
    if (!std::isfinite(element)) {
      bound.unjudgeable = fmt::format(
          "declared {}: sums kept in {} have no finite error bound past {} terms, and this result has "
          "longer ones",
          sums_format ? fmt::format("direct:storage:{}", info(sums).word) : "direct:storage", to_string(sums),
          static_cast<int64_t>(std::ceil(0.5 / info(sums).unit_roundoff)) - 2);
      break;
    }
  return bound;
}

} // namespace convcheck
