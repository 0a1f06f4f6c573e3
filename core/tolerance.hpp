#pragma once
// The error bound of one result element, from what the reference saw while computing it.
//
// A correct implementation in precision u (2^-24 for float32, 2^-53 for float64) computes a sum of `terms`
// products from the same inputs, in any order or tree, with any FMA contraction. Higham (Accuracy and Stability
// of Numerical Algorithms, 2nd ed., section 3.1) bounds its error by gamma_k * sum|a_i*b_i| with
// gamma_k = k*u / (1 - k*u); we take k = terms + 1 for the final store, add the double reference's own gamma,
// an underflow allowance, and multiply by a safety factor c = 2. No correct summation order can exceed this;
// a missing or extra tap of typical size exceeds it unless thousands of terms are summed.
//
// When every input involved is an integer and sum|a_i*b_i| <= 2^24 (float32) or 2^53 (float64), every partial
// sum is an exactly representable integer, so the exact result is reached by every order: the bound is zero.

#include <cstdint>

#include "core/conv_config.hpp"

namespace convcheck {

/// The safety factor c above.
inline constexpr double tolerance_safety_factor = 2.0;

/// The largest |got - reference| a correct implementation in `dtype` can produce for one element.
double error_bound(double abs_sum, int64_t terms, DType dtype, bool integer_inputs);

} // namespace convcheck
