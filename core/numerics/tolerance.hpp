#pragma once
// The error bound of one result element, from what the reference saw while computing it.
//
// A correct implementation accumulates a sum of `terms` products of the same inputs in the accumulation format
// (unit roundoff u_acc: 2^-24 for float32, 2^-53 for float64), in any order or tree, with any FMA contraction, and
// stores it in the result's format (u_store). Each of the terms additions and the final store rounds once, by
// at most u = max(u_acc, u_store), so Higham (Accuracy and Stability of Numerical Algorithms, 2nd ed., section
// 3.1) bounds the error by gamma_{terms+1}(u) * sum|a_i*b_i| with gamma_k(u) = k*u / (1 - k*u). We add the double
// reference's own gamma, an underflow allowance (each product may lose the format's smallest subnormal), and
// multiply by a safety factor c = 2. No correct summation order can exceed this; a missing or extra tap of
// typical size exceeds it unless thousands of terms are summed. Every number comes from the dtype table
// (core/problem/dtype.hpp).
//
// When every input involved is an integer and sum|a_i*b_i| is at most the exact_sum_limit of both formats
// (2^24 for float32), every partial sum is an exactly representable integer, so every order reaches the exact
// result: the bound is zero.

#include <cstdint>

#include "core/problem/dtype.hpp"

namespace convcheck {

/// The safety factor c above.
inline constexpr double tolerance_safety_factor = 2.0;

/// The largest |got - reference| a correct implementation can produce for one element, accumulating in `acc`
/// and storing in `store`.
double error_bound(double abs_sum, int64_t terms, DType acc, DType store, bool integer_inputs);
/// The same with one format for both.
inline double error_bound(double abs_sum, int64_t terms, DType dtype, bool integer_inputs) {
  return error_bound(abs_sum, terms, dtype, dtype, integer_inputs);
}

/// error_bound for many elements of one result: the same value, with the two gamma divisions done once per
/// distinct term count in a row rather than once per element.
class ErrorBound {
public:
  ErrorBound(DType acc, DType store, bool integer_inputs);
  double operator()(double abs_sum, int64_t terms) {
    if (integer_inputs_ && abs_sum <= exact_limit_) return 0.0;
    if (terms != cached_terms_) cache(terms);
    return tolerance_safety_factor * (relative_ * abs_sum + underflow_);
  }

private:
  void cache(int64_t terms);

  bool integer_inputs_;
  double exact_limit_;
  double unit_roundoff_;      // the larger of the two formats'
  double smallest_subnormal_; // the larger of the two formats'
  int64_t cached_terms_ = -1;
  double relative_ = 0, underflow_ = 0; // for cached_terms_
};

} // namespace convcheck
