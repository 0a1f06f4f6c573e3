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

/// error_bound for many elements of one result: the same value, with the two gamma divisions done once per
/// distinct term count in a row rather than once per element.
class ErrorBound {
public:
  ErrorBound(DType dtype, bool integer_inputs)
      : integer_inputs_(integer_inputs), exact_limit_(dtype == DType::float32 ? 0x1.0p24 : 0x1.0p53), dtype_(dtype) {}
  double operator()(double abs_sum, int64_t terms) {
    if (integer_inputs_ && abs_sum <= exact_limit_) return 0.0;
    if (terms != cached_terms_) cache(terms);
    return tolerance_safety_factor * (relative_ * abs_sum + underflow_);
  }

private:
  void cache(int64_t terms);

  bool integer_inputs_;
  double exact_limit_;
  DType dtype_;
  int64_t cached_terms_ = -1;
  double relative_ = 0, underflow_ = 0; // for cached_terms_
};

} // namespace convcheck
